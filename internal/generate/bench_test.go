package generate

import "testing"

func BenchmarkRandomDegree10Mx7(b *testing.B) {
	for b.Loop() {
		if _, err := RandomDegree(10_000_000, 7, 1, 1000, 1); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGrid4900(b *testing.B) {
	for b.Loop() {
		if _, err := Grid(4900, 1, 1000, 1); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkErdosRenyi2048(b *testing.B) {
	for b.Loop() {
		if _, err := ErdosRenyi(2048, 0.05, 1, 100, 1); err != nil {
			b.Fatal(err)
		}
	}
}
