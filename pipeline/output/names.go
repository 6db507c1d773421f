package output

// Names inside a compute output folder, which the owner check recognises
// as pathflow's own and the manifests list.
const (
	DistancesDir = "distances"
	MatrixName   = "distances.bin"
	PathsName    = "paths"
	SummaryName  = "summary"
	VerticesName = "vertices"
)
