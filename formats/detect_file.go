package formats

import (
	"fmt"
	"os"
)

// DetectFile is Detect for the file or folder at path. A folder is an
// ingest output, a table input, whatever it holds. Errors of finding or
// opening path are the os package's, unchanged (callers name the key
// that gave the path); errors of reading it are Detect's, after the path.
func DetectFile(path string) (Detection, error) {
	st, err := os.Stat(path)
	if err != nil {
		return Detection{}, err
	}
	if st.IsDir() {
		return Detection{Kind: KindTable, Rule: "a folder: an ingest output"}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return Detection{}, err
	}
	defer f.Close()
	det, err := Detect(f, st.Size(), path)
	if err != nil {
		return Detection{}, fmt.Errorf("%s: %w", path, err)
	}
	return det, nil
}
