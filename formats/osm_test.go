package formats

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"
)

// TestDetectOpenStreetMap checks that OpenStreetMap extracts are told from
// their content whatever their names, and that lookalikes are not.
func TestDetectOpenStreetMap(t *testing.T) {
	xml := "<?xml version='1.0' encoding='UTF-8'?>\n<!-- extract -->\n<osm version=\"0.6\" generator=\"test\">\n <node id=\"1\" lat=\"1\" lon=\"2\"/>\n</osm>\n"
	// The first bytes of every PBF file: the block header's size, then its
	// type field.
	pbf := append([]byte{0, 0, 0, 0x0d}, []byte("\x0a\x09OSMHeader\x18\x7c")...)
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	zw.Write([]byte(xml))
	zw.Close()
	for _, tc := range []struct {
		name, data string
		want       Kind
		rule       string
	}{
		{"region.osm.pbf", string(pbf), KindOSM, "content: PBF block header OSMHeader"},
		{"misnamed.dat", string(pbf), KindOSM, "content: PBF block header OSMHeader"},
		{"region.osm", xml, KindOSM, "content: XML <osm> element"},
		{"region.txt", xml, KindOSM, "content: XML <osm> element"},
		{"region.osm.gz", zipped.String(), KindOSM, "content: XML <osm> element, gzip by magic bytes"},
		{"region.osm.bz2", "BZh91AY&SY\x00\x01", KindOSM, "name: .osm.bz2 (content: first line \"BZh91AY&SY\\x00\\x01\" fits no format)"},
		{"other.xml", "<?xml version='1.0'?>\n<osmChange/>\n", "", ""},
		{"other.bz2", "BZh91AY&SY\x00\x01", "", ""},
		{"short.pbf", "\x00\x00\x00\x0d\x0a\x07OSMData", KindOSM, ""},
	} {
		det, err := Detect(strings.NewReader(tc.data), int64(len(tc.data)), tc.name)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if det.Kind != tc.want || (tc.rule != "" && det.Rule != tc.rule) {
			t.Errorf("%s: detected %q by %q, want %q by %q", tc.name, det.Kind, det.Rule, tc.want, tc.rule)
		}
	}
}
