// Package devicegraph holds graphs uploaded to one GPU: an arc list
// (EdgeList, for the all-pairs initialisation) and a CSR graph (CSR, for
// the searches), each copied once from its host form and freed by its
// owner, and the reverse of a CSR graph built on the device (Reverse: a
// count of in-degrees, a prefix sum over them, a scatter of the arcs). The
// memory, contexts and launches it uses are package device's.
package devicegraph
