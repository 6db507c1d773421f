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
// folder into place, replacing an existing directory only at that moment;
// Dir.CommitInto instead moves chosen subfolders into a folder shared with
// other attempts (a dataset's partitions), replacing each the same way;
// Dir.Abort removes the temporary.
//
// Replacing a directory: on Linux the new directory and the old one are
// swapped in one step with renameat2(RENAME_EXCHANGE), so a reader of the
// final name (out/manifest.json) finds the whole old output or the whole
// new one, never nothing; the old one, now under the temporary's name, is
// then removed. Where there is no such swap (other systems, kernels before
// 3.15, file systems that answer EINVAL or EOPNOTSUPP such as NFS and some
// FUSE mounts) the guarantee is weaker: the old directory is moved aside
// into ".<name>.old-<pid>-<host>-<random>", the new one renamed in and the
// old one removed, so the final name is missing for the moment between the
// two renames (a reader sees no output, never a mixed or partial one).
// Either way this package does not serialise two writers of one name: the
// caller takes a Lock around its commits.
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
// Lock serialises writers of one name across processes and hosts: an
// exclusive lock file holding its holder's pid, host, boot id and start
// time, touched every LockRefresh while held. A waiter breaks a lock whose
// holder is gone from this host (or whose pid was reused), an empty or
// unreadable one, and one of any host not touched for LockStaleAge; its
// wait ends with the caller's context.
//
// Renames are atomic within one file system on POSIX systems, which is why
// temporaries live in the destination's own folder. The folder itself is
// synced after each rename so the new name survives a crash.
package atomicfile
