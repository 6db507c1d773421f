package formats

// Helpers of the package's own tests that its external tests share.
var (
	ReadTestFile  = readFile
	GzipTestBytes = gzipBytes
)
