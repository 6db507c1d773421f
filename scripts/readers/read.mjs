// Reads one of pathflow's tables with polars (nodejs-polars) or Arrow JS
// (apache-arrow) and prints it as JSON, so tests can check what an
// analyst's reader sees, value by value.
//
// Usage:
//   node read.mjs polars-parquet PATH [hive]  pl.scanParquet(PATH): a file,
//                                            a glob or a Hive folder tree
//                                            (hive: partition columns on)
//   node read.mjs polars-ipc PATH             pl.scanIPC(PATH) (readIPC takes a
//                                            path not ending in .ipc for
//                                            the file's content)
//   node read.mjs arrow PATH                  Arrow JS tableFromIPC on the
//                                            file's bytes, with the lz4 and
//                                            zstd codecs of arrow-codecs.mjs
//
// Output: one JSON document
//   {"columns": [names], "types": [the reader's type names], "rows": [[values]]}
// in the reader's row order. Nulls are null; integers of every width are
// JSON numbers with all their digits (a decoder that keeps the number text,
// such as Go's json.Decoder.UseNumber, reads int64 exactly); floats always
// carry a '.' or an exponent; lists are arrays. Errors go to stderr with
// exit status 1.

import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { registerArrowCodecs } from './arrow-codecs.mjs';

const require = createRequire(import.meta.url);

// Exact is the text of a JSON number, written as is.
class Exact {
  constructor(text) {
    this.text = text;
  }
}

// jsonValue turns a reader's value into one JSON.stringify writes
// losslessly: BigInt and integer numbers become Exact digits, other numbers
// Exact text with a '.' or an exponent.
function jsonValue(v) {
  if (v === null || v === undefined) {
    return null;
  }
  if (typeof v === 'bigint') {
    return new Exact(v.toString());
  }
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) {
      return String(v);
    }
    const s = String(v);
    return new Exact(/[.eE]/.test(s) ? s : s + '.0');
  }
  if (Array.isArray(v) || ArrayBuffer.isView(v)) {
    return Array.from(v, jsonValue);
  }
  if (typeof v?.[Symbol.iterator] === 'function' && typeof v !== 'string') { // an Arrow JS list cell
    return Array.from(v, jsonValue);
  }
  return v;
}

// integral says whether a reader's type name is an integer type, whose
// numbers print without a fraction.
function integral(type) {
  return /\bU?Int\d+\b|\bUint\d+\b/i.test(type);
}

function cell(v, type) {
  if (typeof v === 'number' && Number.isInteger(v) && integral(type)) {
    return new Exact(String(v));
  }
  if (Array.isArray(v) || ArrayBuffer.isView(v) || typeof v?.toArray === 'function') {
    const inner = /<(.*)>|List\((.*)\)/.exec(type);
    const innerType = inner ? (inner[1] ?? inner[2]) : '';
    // An Arrow JS list cell is a Vector: its iterator gives null for null
    // items, which its toArray() (the raw values) does not.
    return Array.from(v, (x) => cell(x, innerType));
  }
  return jsonValue(v);
}

function print(columns, types, cols, length) {
  const rows = [];
  for (let i = 0; i < length; i++) {
    rows.push(cols.map((c, j) => cell(c(i), types[j])));
  }
  const marker = '~exact~';
  const text = JSON.stringify({ columns, types, rows }, (_, v) =>
    v instanceof Exact ? marker + v.text : v);
  process.stdout.write(text.replace(new RegExp(`"${marker}([^"]*)"`, 'g'), '$1') + '\n');
}

// polarsType writes a polars dtype as "Int32" or "List(Int32)", without
// the "DataType(...)" wrappers of its String form.
function polarsType(dtype) {
  const s = String(dtype);
  const wrappers = s.split('DataType(').length - 1;
  return s.replaceAll('DataType(', '').slice(0, s.length - 'DataType('.length * wrappers - wrappers);
}

function printPolars(df) {
  const series = df.getColumns();
  const values = series.map((s) => s.toArray());
  print(series.map((s) => s.name), series.map((s) => polarsType(s.dtype)),
    values.map((vs) => (i) => vs[i]), df.height);
}

function printArrow(table) {
  const fields = table.schema.fields;
  const cols = fields.map((f) => table.getChild(f.name));
  print(fields.map((f) => f.name), fields.map((f) => String(f.type)),
    cols.map((c) => (i) => c.get(i)), table.numRows);
}

const [mode, path, option] = process.argv.slice(2);
try {
  switch (mode) {
    case 'polars-parquet': {
      const pl = require('nodejs-polars');
      printPolars(pl.scanParquet(path, { hivePartitioning: option === 'hive' }).collectSync());
      break;
    }
    case 'polars-ipc': {
      const pl = require('nodejs-polars');
      printPolars(pl.scanIPC(path).collectSync());
      break;
    }
    case 'arrow': {
      const arrow = require('apache-arrow');
      registerArrowCodecs(arrow);
      printArrow(arrow.tableFromIPC(readFileSync(path)));
      break;
    }
    default:
      throw new Error(`unknown mode ${JSON.stringify(mode)}: want polars-parquet, polars-ipc or arrow`);
  }
} catch (err) {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
}
