package tables

import (
	"bytes"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
)

// What the page encoders of this package (deltaColumn, binaryColumn,
// listColumn) do alike once a page's bytes are laid out, as arrow-go's
// column writer does it for a version 1 data page.

// pageStatistics returns the statistics of a page for its header, as
// arrow-go's column writer writes them (values over maxStats bytes
// dropped, signed as the column sorts), merges them into the chunk's and
// clears them for the next page. page and chunk are never nil: a column
// that keeps no statistics does not call it.
func pageStatistics(page, chunk metadata.TypedStatistics, maxStats int, signed bool) (metadata.EncodedStatistics, error) {
	stats, err := page.Encode()
	if err != nil {
		return stats, err
	}
	stats.ApplyStatSizeLimits(maxStats)
	stats.Signed = signed
	chunk.Merge(page)
	page.Reset()
	return stats, nil
}

// writeDataPage compresses page (into scratch) when pager has a codec and
// writes it as a version 1 data page of levels levels (rows, for a flat
// column) in encoding enc, its definition and repetition levels RLE, with
// stats and the index of the row it starts in.
func writeDataPage(pager file.PageWriter, scratch *bytes.Buffer, page []byte, enc parquet.Encoding,
	levels int, stats metadata.EncodedStatistics, firstRow int) error {
	data := page
	if pager.HasCompressor() {
		scratch.Reset()
		data = pager.Compress(scratch, page)
	}
	dp := file.NewDataPageV1WithConfig(memory.NewBufferBytes(data), parquet.Encodings.RLE, parquet.Encodings.RLE, file.DataPageConfig{
		Num:              int32(levels),
		Encoding:         enc,
		UncompressedSize: int32(len(page)),
		Stats:            stats,
		FirstRowIndex:    int64(firstRow),
	})
	_, err := pager.WriteDataPage(dp)
	dp.Release()
	return err
}
