// Package output hands a stage's results over to readers, on top of
// internal/atomicfile: a run writes into a temporary folder of its own and
// commits it with a rename (Begin, Open, Commit), never over a folder it
// did not write (the owner check, output.overwrite) nor over a path it
// reads (OverlapCheck). It defines the manifests that describe a committed
// output (Manifest, IngestManifest, ShardManifest, DatasetManifest), the
// names of the files inside one, and the output keys both stages share.
package output
