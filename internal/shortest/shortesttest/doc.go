// Package shortesttest holds what the tests of the shortest-path
// algorithms (package shortest) and of the backends that run them share:
// one table of test graphs every algorithm's test loops over, hand-written
// and random, and slow, obviously correct references (a triple loop, a
// plain Bellman-Ford, gonum's implementations) with checks that compare an
// answer against them, and CheckRun, which every backend's test of the
// hand-written table judges its runs with. It is imported by tests only.
package shortesttest
