package formats

import (
	"bytes"
)

// pbfHeaderType is how every OpenStreetMap PBF file starts once its first
// four bytes (the big-endian size of the block header) are skipped: the
// block header's field 1 (tag 0x0a), a string of 9 bytes naming the block
// type OSMHeader.
var pbfHeaderType = []byte("\x0a\x09OSMHeader")

// osmContent recognises an OpenStreetMap extract from its first bytes:
// a PBF file by its first block header, an XML file by an <osm> element
// before any other (after an optional XML declaration and comments).
func osmContent(head []byte) (string, bool) {
	if IsOSMPBF(head) {
		return "content: PBF block header OSMHeader", true
	}
	text := bytes.TrimLeft(head, " \t\r\n\ufeff")
	for {
		switch {
		case bytes.HasPrefix(text, []byte("<?")):
			end := bytes.Index(text, []byte("?>"))
			if end < 0 {
				return "", false
			}
			text = bytes.TrimLeft(text[end+2:], " \t\r\n")
		case bytes.HasPrefix(text, []byte("<!--")):
			end := bytes.Index(text, []byte("-->"))
			if end < 0 {
				return "", false
			}
			text = bytes.TrimLeft(text[end+3:], " \t\r\n")
		case bytes.HasPrefix(text, []byte("<osm")) && len(text) > 4 && (text[4] == ' ' || text[4] == '>' || text[4] == '\t' || text[4] == '\r' || text[4] == '\n'):
			return "content: XML <osm> element", true
		default:
			return "", false
		}
	}
}

// IsOSMPBF reports whether head, the first bytes of a file, starts an
// OpenStreetMap PBF file: the reader (formats/osmroads) tells PBF from XML
// by the same rule as detection.
func IsOSMPBF(head []byte) bool {
	return len(head) >= 4+len(pbfHeaderType) && bytes.Equal(head[4:4+len(pbfHeaderType)], pbfHeaderType)
}
