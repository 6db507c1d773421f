package hierarchy

// FactKey is the backend.Request.Facts key under which a backend that
// builds a hierarchy for a run reports it, as BuildFacts.
const FactKey = "hierarchy"

// BuildFacts is what a run reports of the contraction hierarchy it built:
// how long the build took, how many shortcuts it added and in how many
// rounds of independent sets it contracted.
type BuildFacts struct {
	BuildSeconds float64 `json:"build_s"`
	Shortcuts    int     `json:"shortcuts"`
	Rounds       int     `json:"rounds"`
}

// Facts returns h's BuildFacts for a build that took seconds.
func (h *Hierarchy) Facts(seconds float64) BuildFacts {
	return BuildFacts{BuildSeconds: seconds, Shortcuts: h.Shortcuts(), Rounds: h.Rounds}
}
