// Codecs that let Arrow JS (apache-arrow) read Arrow IPC files whose
// buffers are compressed, as pathflow writes them with output.compression
// lz4 or zstd. Arrow JS decodes compressed record batches only through
// codecs registered in its compressionRegistry and ships none itself:
// without these it throws "Record batch is compressed but codec not
// found". Both decoders are plain JavaScript from npm (lz4js for LZ4 frames,
// fzstd for Zstandard), so they run wherever Node.js does.
//
//   import * as arrow from 'apache-arrow';
//   import { registerArrowCodecs } from './arrow-codecs.mjs';
//   registerArrowCodecs(arrow);
//   const table = arrow.tableFromIPC(readFileSync('distances/part-00000.arrow'));

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const lz4 = require('lz4js');
const fzstd = require('fzstd');

// registerArrowCodecs registers LZ4_FRAME and ZSTD decoders with the given
// apache-arrow module. Only decoding: these codecs do not write.
export function registerArrowCodecs(arrow) {
  arrow.compressionRegistry.set(arrow.CompressionType.LZ4_FRAME, {
    decode: (data) => aligned(lz4.decompress(data)),
  });
  arrow.compressionRegistry.set(arrow.CompressionType.ZSTD, {
    decode: (data) => aligned(fzstd.decompress(data)),
  });
}

// aligned returns the bytes at the start of a buffer of their own: Arrow JS
// views a decoded buffer as BigInt64Array and the like, which need an
// offset that is a multiple of the element size, and a decoder may return
// a view into a larger buffer.
function aligned(bytes) {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? bytes
    : bytes.slice();
}
