package main

import (
	"sort"
	"strings"

	"github.com/urfave/cli/v2"
)

// helpCommand is canon help: the help text of canon or of one command, as
// --help prints it, or with --json every command and flag in a shape an
// agent reads (the list a tool learns canon's commands from).
func helpCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "help",
		Aliases:   []string{"h"},
		Usage:     "show the commands, or one command's usage and flags (--json: all of it, for tools)",
		ArgsUsage: "[COMMAND [SUBCOMMAND]]",
		Flags:     []cli.Flag{jsonFlag},
		Action: func(c *cli.Context) error {
			path := c.Args().Slice()
			if !c.Bool("json") {
				if len(path) == 0 {
					return cli.ShowAppHelp(c)
				}
				if len(path) == 1 && c.Command.HasName(path[0]) {
					cli.HelpPrinter(c.App.Writer, cli.CommandHelpTemplate, c.Command) // canon help help
					return nil
				}
				// what canon COMMAND --help prints, an unknown command's
				// error included
				return c.App.RunContext(c.Context, append(append([]string{c.App.Name}, path...), "--help"))
			}
			if len(path) == 0 {
				return writeJSON(e.stdout, helpOfApp(c.App))
			}
			cmds, where := c.App.Commands, ""
			var found *cli.Command
			for _, name := range path {
				found = commandNamed(cmds, name)
				if found == nil {
					if where == "" {
						return fail(2, "there is no command %q; run canon help --json for the list", name)
					}
					return fail(2, "there is no command %q in canon%s; run canon help --json%s for the list", name, where, where)
				}
				cmds, where = found.Subcommands, where+" "+found.Name
			}
			return writeJSON(e.stdout, helpOf(found))
		},
	}
}

// commandNamed is the visible command of cmds called name (or by an
// alias), nil when none is.
func commandNamed(cmds []*cli.Command, name string) *cli.Command {
	for _, c := range cmds {
		if !c.Hidden && c.HasName(name) {
			return c
		}
	}
	return nil
}

// helpJSON is canon help --json: the program as a command (its global
// flags, its commands) and its version.
type helpJSON struct {
	Version string `json:"version"`
	commandJSON
}

// commandJSON is one command: its name, the other names it answers to,
// what it does, its arguments, its flags and its own commands.
type commandJSON struct {
	Name     string        `json:"name"`
	Aliases  []string      `json:"aliases"`
	Usage    string        `json:"usage"`
	Args     string        `json:"args"`
	Flags    []flagJSON    `json:"flags"`
	Commands []commandJSON `json:"commands"`
}

// flagJSON is one flag: its names (without dashes), what it is for,
// whether it takes a value, and the value it has when not given ("" when
// it has none to show).
type flagJSON struct {
	Name       string   `json:"name"`
	Aliases    []string `json:"aliases"`
	Usage      string   `json:"usage"`
	TakesValue bool     `json:"takes_value"`
	Default    string   `json:"default"`
}

func helpOfApp(a *cli.App) helpJSON {
	return helpJSON{Version: a.Version, commandJSON: commandJSON{Name: a.Name, Aliases: []string{}, Usage: a.Usage, Args: a.ArgsUsage,
		Flags: flagsOf(a.VisibleFlags()), Commands: commandsOf(a.Commands)}}
}

func commandsOf(cmds []*cli.Command) []commandJSON {
	out := []commandJSON{}
	for _, c := range cmds {
		if c.Hidden || c.Name == "help" && len(c.Flags) == 0 {
			continue // urfave/cli's own help of a group (canon workset help)
		}
		out = append(out, helpOf(c))
	}
	return out
}

func helpOf(c *cli.Command) commandJSON {
	aliases := c.Aliases
	if aliases == nil {
		aliases = []string{}
	}
	return commandJSON{Name: c.Name, Aliases: aliases, Usage: c.Usage, Args: c.ArgsUsage, Flags: flagsOf(c.VisibleFlags()), Commands: commandsOf(c.Subcommands)}
}

// flagsOf describes flags, sorted by name (the order --help prints them
// in is the order they were declared, which JSON need not keep); the help
// flag urfave/cli adds is left out.
func flagsOf(flags []cli.Flag) []flagJSON {
	out := []flagJSON{}
	for _, f := range flags {
		names := f.Names()
		if names[0] == "help" {
			continue
		}
		j := flagJSON{Name: names[0], Aliases: append([]string{}, names[1:]...)}
		if d, ok := f.(cli.DocGenerationFlag); ok {
			j.Usage = strings.ReplaceAll(d.GetUsage(), "`", "")
			j.TakesValue = d.TakesValue()
			if j.TakesValue {
				j.Default = d.GetDefaultText()
				if j.Default == "" {
					j.Default = d.GetValue()
				}
			}
		}
		out = append(out, j)
	}
	sort.Slice(out, func(i, k int) bool { return out[i].Name < out[k].Name })
	return out
}
