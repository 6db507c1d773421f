// Reads a GeoParquet file as a JavaScript GIS reader does and prints it as
// JSON, so tests can check the geometry that such a reader finds, point by
// point.
//
// Usage:
//   node read.mjs PATH
//
// The file is read twice with hyparquet (codecs from hyparquet-compressors):
// once with its GeoParquet support, which finds the geometry columns
// through the file's "geo" metadata and decodes their WKB to GeoJSON, and
// once without it, so that the primary column's WKB bytes go to wkx, a WKB
// parser of its own.
//
// Output: one JSON document
//   {"geo": the "geo" metadata as the file stores it (a string) or null,
//    "columns": [top-level column names],
//    "types": [Parquet physical types, or "group" for a struct],
//    "rows": [[values]],             hyparquet's: geometry as GeoJSON,
//                                    structs as objects, nulls as null
//    "wkx": [GeoJSON or null]}       wkx's parse of each row's WKB
// Integers of every width are JSON numbers with all their digits (a
// decoder that keeps the number text, such as Go's json.Decoder.UseNumber,
// reads int64 exactly). Errors go to stderr with exit status 1.

import { createRequire } from 'node:module';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';

const wkx = createRequire(import.meta.url)('wkx');

// toJSON writes v as JSON, BigInt values as their digits.
function toJSON(v) {
  const marker = '~bigint~';
  const text = JSON.stringify(v, (_, x) => (typeof x === 'bigint' ? marker + x.toString() : x));
  return text.replace(new RegExp(`"${marker}(-?[0-9]+)"`, 'g'), '$1');
}

async function read(path) {
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  const geo = metadata.key_value_metadata?.find(({ key }) => key === 'geo')?.value ?? null;
  const top = parquetSchema(metadata).children;
  const columns = top.map((c) => c.element.name);
  const types = top.map((c) => c.element.type ?? 'group');
  const objects = await parquetReadObjects({ file, metadata, compressors });
  const rows = objects.map((o) => columns.map((name) => o[name] ?? null));

  let parsed = null;
  if (geo !== null) {
    const primary = JSON.parse(geo).primary_column;
    const plain = await parquetMetadataAsync(file, { geoparquet: false });
    // utf8: false keeps a BYTE_ARRAY without a logical type as bytes.
    const raw = await parquetReadObjects({ file, metadata: plain, compressors, columns: [primary], utf8: false });
    parsed = raw.map((o) => (o[primary] == null ? null : wkx.Geometry.parse(Buffer.from(o[primary])).toGeoJSON()));
  }
  return { geo, columns, types, rows, wkx: parsed };
}

const [path] = process.argv.slice(2);
try {
  if (!path) {
    throw new Error('usage: node read.mjs PATH');
  }
  process.stdout.write(toJSON(await read(path)) + '\n');
} catch (err) {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
}
