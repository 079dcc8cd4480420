// Package clirun runs canon's command line: a urfave/cli app made to
// behave the way canon promises (docs/commands.md). Flags may follow the
// arguments (canon search "token refresh" --limit 5); a bad flag is one
// sentence and exit status 2, never a help page; SIGINT and SIGTERM stop
// work promptly; every error is one line, "canon: error: ...", with its
// exit status.
//
// It knows nothing of canon's commands or packages: cmd/canon declares
// the commands and turns errors into sentences; clirun only runs them. It
// sits with cmd/canon at the top of the ladder.
package clirun
