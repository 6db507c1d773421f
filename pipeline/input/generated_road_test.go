package input

import "testing"

// TestRoadLocalKeepsOlderNames checks that a road spec without local keeps
// the canonical name it had before the parameter existed, and that one
// with another share names it.
func TestRoadLocalKeepsOlderNames(t *testing.T) {
	for spec, want := range map[string]string{
		"road:side=16":                   "road:seed=1,side=16",
		"road:side=16,local=0.25":        "road:seed=1,side=16",
		"road:side=16,local=0.75,seed=2": "road:local=0.75,seed=2,side=16",
	} {
		g, err := Generate(spec)
		if err != nil {
			t.Fatal(err)
		}
		if g.Name != want {
			t.Errorf("%s: named %q, want %q", spec, g.Name, want)
		}
	}
	if _, err := Generate("road:side=16,local=2"); err == nil {
		t.Error("local=2 was accepted")
	}
}
