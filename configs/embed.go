// Package configs holds pathflow's shipped configuration files. It embeds
// the demo, which compute runs when it is given neither a config file nor
// an input, so that a first run on a fresh clone does something useful.
package configs

import (
	_ "embed"
)

// DemoName is the demo config's path in the repository, for messages.
const DemoName = "configs/demo.yaml"

// Demo is the text of configs/demo.yaml: a generated grid, so that it runs
// with no network, no datasets and no GPU.
//
//go:embed demo.yaml
var Demo []byte
