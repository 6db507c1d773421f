// Runs SQL on an in-memory DuckDB and prints the results as JSON, so tests
// can read pathflow's tables the way an analyst's DuckDB does.
//
// Usage:
//   node query.mjs 'SELECT 1' 'SELECT 2'        one statement per argument
//   echo '["SELECT 1", "SELECT 2"]' | node query.mjs
//   node query.mjs --serve                      one request per input line
//
// A statement may be several separated by semicolons: all run, and the
// last one's result stands for them. The first two forms run the
// statements in order on one fresh database and print one JSON document:
// an array with, for each statement,
//   {"columns": [names], "types": [DuckDB type names], "rows": [[values]]}
// On failure they print "statement N: " and the DuckDB error message on
// stderr and exit 1.
//
// --serve reads one JSON array of statements per line and answers each with
// one line: {"results": [...]}, or {"error": message, "statement": index}
// (index from 0; null when the request itself is malformed). Each request
// runs on a fresh database. Loading DuckDB's native library takes most of a
// second, so a test binary keeps one such process for all its queries.
//
// Values: NULL is null; integers of every width (BIGINT, HUGEINT, UBIGINT,
// ...) are JSON numbers with all their digits, so a decoder that keeps the
// number text (Go's json.Decoder.UseNumber) reads them exactly, though
// JavaScript's JSON.parse would round those beyond 2^53. FLOAT and DOUBLE
// are JSON numbers that always carry a '.' or an exponent, so integer and
// floating-point results can be told apart; NaN and infinities are the
// strings "NaN", "Infinity" and "-Infinity". Lists and arrays are arrays,
// structs are objects, and the rest (VARCHAR, DECIMAL, DATE, TIMESTAMP,
// ...) are strings, as @duckdb/node-api's JSON conversion writes them.

import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';

// require() loads the library's CommonJS modules about twice as fast as an
// ESM import, which matters: the load dominates the startup time.
const { DuckDBInstance, DuckDBTypeId, JsonDuckDBValueConverter } =
  createRequire(import.meta.url)('@duckdb/node-api');

// Exact is the text of a JSON number, written as is.
class Exact {
  constructor(text) {
    this.text = text;
  }
}

const integerTypes = new Set([
  DuckDBTypeId.TINYINT, DuckDBTypeId.SMALLINT, DuckDBTypeId.INTEGER,
  DuckDBTypeId.BIGINT, DuckDBTypeId.HUGEINT, DuckDBTypeId.UTINYINT,
  DuckDBTypeId.USMALLINT, DuckDBTypeId.UINTEGER, DuckDBTypeId.UBIGINT,
  DuckDBTypeId.UHUGEINT,
]);

function floatText(x) {
  if (!Number.isFinite(x)) {
    return String(x); // "NaN", "Infinity", "-Infinity"
  }
  if (Object.is(x, -0)) {
    return new Exact('-0.0');
  }
  const s = String(x); // shortest text that reads back as x
  return new Exact(/[.e]/.test(s) ? s : s + '.0');
}

// convert overrides the library's JSON conversion for numbers and passes
// itself down, so list and struct elements get the same treatment.
function convert(value, type, self) {
  if (value == null) {
    return null;
  }
  if (integerTypes.has(type.typeId)) {
    return new Exact(String(value)); // a number or a bigint
  }
  if (type.typeId === DuckDBTypeId.FLOAT || type.typeId === DuckDBTypeId.DOUBLE) {
    return floatText(value);
  }
  return JsonDuckDBValueConverter(value, type, self);
}

function toJSON(v) {
  if (v === null || v === undefined) {
    return 'null';
  }
  if (v instanceof Exact) {
    return v.text;
  }
  if (Array.isArray(v)) {
    return '[' + v.map(toJSON).join(',') + ']';
  }
  if (typeof v === 'object') {
    return '{' + Object.entries(v).map(([k, x]) => JSON.stringify(k) + ':' + toJSON(x)).join(',') + '}';
  }
  return JSON.stringify(v);
}

// StatementError is a DuckDB error with the index of the failed statement.
class StatementError extends Error {
  constructor(index, message) {
    super(message);
    this.index = index;
  }
}

function checkStatements(sql) {
  if (!Array.isArray(sql) || !sql.every((s) => typeof s === 'string')) {
    throw new Error('want a JSON array of SQL strings');
  }
  return sql;
}

// runAll runs every statement of sql, which may hold several separated by
// semicolons, and reads the result of the last. (Given such a string,
// connection.run returns one of the results but not always the last.)
async function runAll(conn, sql) {
  // SQL without a statement (blank, or only comments) makes
  // extractStatements fail with no more than this message; parse errors
  // come with DuckDB's own.
  const extracted = await conn.extractStatements(sql).catch((err) => {
    throw err.message === 'Error in native callback' ? new Error('no SQL statement') : err;
  });
  for (let i = 0; i < extracted.count; i++) {
    const prepared = await extracted.prepare(i);
    try {
      if (i === extracted.count - 1) {
        return await prepared.runAndReadAll();
      }
      await prepared.run();
    } finally {
      prepared.destroySync();
    }
  }
  throw new Error('no SQL statement');
}

// run runs the statements on a fresh in-memory database. DuckDB does not
// install extensions on its own here, so no query quietly depends on the
// network; Parquet and JSON support are built into the library.
async function run(statements) {
  const db = await DuckDBInstance.create(':memory:', { autoinstall_known_extensions: 'false' });
  let conn = null;
  try {
    conn = await db.connect();
    const results = [];
    for (const [i, sql] of statements.entries()) {
      const reader = await runAll(conn, sql).catch((err) => {
        throw new StatementError(i, err.message);
      });
      results.push({
        columns: reader.columnNames(),
        types: reader.columnTypes().map(String),
        rows: reader.convertRows(convert),
      });
    }
    return results;
  } finally {
    conn?.closeSync();
    db.closeSync();
  }
}

async function serve() {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') {
      continue;
    }
    let reply;
    try {
      reply = '{"results":' + toJSON(await run(checkStatements(JSON.parse(line)))) + '}';
    } catch (err) {
      reply = JSON.stringify({ error: err.message, statement: err.index ?? null });
    }
    process.stdout.write(reply + '\n');
  }
}

async function readStdin() {
  let text = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) {
    text += chunk;
  }
  return text;
}

async function main(args) {
  if (args.length === 1 && args[0] === '--serve') {
    return serve();
  }
  try {
    const statements = args.length > 0 ? args : checkStatements(JSON.parse(await readStdin()));
    process.stdout.write(toJSON(await run(statements)) + '\n');
  } catch (err) {
    const where = err instanceof StatementError ? `statement ${err.index + 1}: ` : '';
    process.stderr.write(where + err.message + '\n');
    process.exitCode = 1;
  }
}

await main(process.argv.slice(2));
