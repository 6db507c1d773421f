package atomicfile

import "io/fs"

// Option configures Create and CreateDir.
type Option func(*config)

type config struct {
	filePerm fs.FileMode
	dirPerm  fs.FileMode
}

// DefaultFilePerm and DefaultDirPerm are the permissions a committed file or
// directory gets unless WithPerm says otherwise (the process umask does not
// apply: temporaries are created private and then set to these).
const (
	DefaultFilePerm fs.FileMode = 0o644
	DefaultDirPerm  fs.FileMode = 0o755
)

func newConfig(opts []Option) config {
	cfg := config{filePerm: DefaultFilePerm, dirPerm: DefaultDirPerm}
	for _, opt := range opts {
		opt(&cfg)
	}
	return cfg
}

// WithPerm sets the permission bits of the committed file (Create) or
// directory (CreateDir).
func WithPerm(perm fs.FileMode) Option {
	return func(c *config) {
		c.filePerm = perm.Perm()
		c.dirPerm = perm.Perm()
	}
}
