package runlog

import "github.com/pathflow/pathflow/internal/config"

// Logging configuration keys, read by every command.
const (
	KeyLogFormat = "log.format"
	KeyLogQuiet  = "log.quiet"
)

// Keys declares the logging keys. Each stage lists them with its own keys,
// since a stage's progress lines follow log.quiet.
func Keys() []config.Key {
	return []config.Key{
		{Name: KeyLogFormat, Default: "text", Flag: "log-format", Usage: "log lines, warnings and the final error line on stderr: text or json"},
		{Name: KeyLogQuiet, Default: false, Flag: "quiet", Usage: "only warnings and errors on stderr"},
	}
}

// Settings is how a command logs.
type Settings struct {
	Format string
	Quiet  bool
}

// Read reads the logging keys.
func Read(vs *config.Values) Settings {
	return Settings{Format: vs.OneOf(KeyLogFormat, "text", "json"), Quiet: vs.Bool(KeyLogQuiet)}
}
