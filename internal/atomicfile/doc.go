// Package atomicfile writes outputs so that a reader never sees a partial
// one: data goes to a temporary beside the final name, and only a complete,
// synced temporary is renamed into place.
//
// Files: Create opens ".<name>.tmp-<pid>-<host>-<random>" in the
// destination's folder; File.Commit syncs, closes and renames it over the
// final name; File.Abort removes it. Directories (multi-part outputs):
// CreateDir makes ".<name>.tmp-<pid>-<host>-<random>"; files inside it are
// made with Dir.Create (or CreateIn, which finds the Dir from the path) and
// written as "<file>.partial", so no uncommitted file carries a final
// extension that a reader's glob (out/**/*.parquet) would match.
// Dir.Commit gives them their names, syncs every file once and moves the
// folder into place, replacing an existing directory only at that moment
// (the old one is moved aside into ".<name>.old-<pid>-<host>-<random>", the
// new one renamed in, the old one removed); Dir.CommitInto instead moves
// chosen subfolders into a folder shared with other attempts (a dataset's
// partitions); Dir.Abort removes the temporary.
//
// Commit and Abort are each safe to call more than once and in either order,
// so the usual pattern is
//
//	f, err := atomicfile.Create(path)
//	if err != nil { return err }
//	defer f.Abort() // no-op once committed
//	... write ...
//	return f.Commit()
//
// Every temporary not yet committed or aborted is registered; AbortAll
// removes them all, so a SIGINT/SIGTERM handler can clean up before the
// process exits. A process killed outright (SIGKILL, power loss) leaves its
// ".tmp-" or ".old-" entries behind; the final name is only ever created by
// a rename, and the next run into the same place removes them with
// RemoveStale, which takes only those whose process no longer runs on this
// host.
//
// Renames are atomic within one file system on POSIX systems, which is why
// temporaries live in the destination's own folder. The folder itself is
// synced after each rename so the new name survives a crash.
package atomicfile
