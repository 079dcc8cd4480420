package main

import "github.com/canon-md/canon/cmd/internal/clirun"

// version is set by the build (-ldflags "-X main.version=..."); other
// builds report what the Go toolchain recorded (clirun.Version).
var version = "0.1.0-dev"

func init() { version = clirun.Version(version, "0.1.0-dev") }

func main() { clirun.Main(run) }
