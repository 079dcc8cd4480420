package clirun

import (
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

func TestPermute(t *testing.T) {
	app := &cli.App{Name: "canon", Commands: []*cli.Command{
		{Name: "search", Flags: []cli.Flag{&cli.IntFlag{Name: "limit", Aliases: []string{"n"}}, &cli.BoolFlag{Name: "json"}}},
		{Name: "hook", SkipFlagParsing: true},
		{Name: "graph", Subcommands: []*cli.Command{{Name: "path", Flags: []cli.Flag{&cli.StringFlag{Name: "edges"}}}}},
	}}
	for _, c := range []struct{ name, in, want string }{
		{"flags after the query", "canon search token refresh --limit 5 --json", "canon search --limit 5 --json -- token refresh"},
		{"global flag kept in front", "canon -C dir search x -n 2", "canon -C dir search -n 2 -- x"},
		{"value with =", "canon search x --limit=3", "canon search --limit=3 -- x"},
		{"a dash-led argument after --", "canon search --json -- -x", "canon search --json -- -x"},
		{"help after arguments", "canon search x --help", "canon search --help"},
		{"subcommand", "canon graph path A B --edges parent", "canon graph path --edges parent -- A B"},
		{"hook keeps its arguments", "canon hook post-checkout a b 1", "canon hook post-checkout a b 1"},
		{"no command", "canon --version", "canon --version"},
		{"-C after the command", "canon search x -C dir -n 2", "canon -C dir search -n 2 -- x"},
		{"-C= after the command", "canon search -C=dir x", "canon -C=dir search -- x"},
		{"--json before the command", "canon --json search x", "canon search --json -- x"},
		{"--json kept where the command has none", "canon --json -C dir graph path A", "canon -C dir --json graph path -- A"},
		{"both swapped", "canon --json search x -C dir", "canon -C dir search --json -- x"},
		{"--json before a command without it", "canon --json hook post-commit", "canon --json hook post-commit"},
	} {
		if got := strings.Join(Permute(app, strings.Fields(c.in)), " "); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
