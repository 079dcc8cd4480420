package main

import (
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/cmd/internal/usecase"
	"github.com/canon-md/canon/gitsync"
)

// maxBody bounds canon new's --body in bytes.
const maxBody = 1 << 20

func newCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "new",
		Usage:     "create an item the way the repository writes the items of its kind",
		ArgsUsage: "KIND \"Title\"",
		Description: "Creates one item: its id is the kind's next (canon id next, free on every branch); its folder,\n" +
			"file name and frontmatter (the fields in their order, quotes, lists and dates) and its usual sections\n" +
			"are learned from the newest items of the kind with that id prefix, or come from .canon/templates/KIND.md\n" +
			"when the repository has one. Its state is the kind's first state (To Do, Proposed, Backlog ...).\n" +
			"--set FIELD=VALUE sets a field (a list field takes each value given); --body fills the description.\n" +
			"The item is checked as canon check would check it (a parent that names nothing or of a kind the\n" +
			"rules forbid is refused), written atomically with the index synced; --commit commits it alone.\n" +
			"See docs/items.md.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "parent", Usage: "the item's parent: an `ITEM` canon show takes"},
			&cli.StringSliceFlag{Name: "set", Usage: "set a field: `FIELD=VALUE` (repeatable)"},
			&cli.StringFlag{Name: "body", Usage: "the description's text from `FILE` (- reads stdin)"},
			&cli.StringFlag{Name: "path", Usage: "write the item at `PATH` instead of where the items of its kind go"},
			&cli.StringFlag{Name: "namespace", Usage: "mint the id in `NAME`'s id space (a Kano product)"},
			itemDryRunFlag, itemCommitFlag, jsonFlag,
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 2 {
				return fail(2, "new takes the kind and the title: canon new task \"Retry failed webhooks\"")
			}
			a := usecase.NewArgs{Kind: c.Args().Get(0), Title: c.Args().Get(1), Parent: c.String("parent"), Path: c.String("path"),
				Namespace: c.String("namespace"), DryRun: c.Bool("dry-run"), Commit: c.Bool("commit")}
			var err error
			if a.Set, err = fieldValues(c.StringSlice("set")); err != nil {
				return err
			}
			if a.Body, err = readBody(c.String("body"), c.App.Reader); err != nil {
				return err
			}
			return e.with(c, "canon new", func(s *gitsync.Session) (output, error) {
				res, err := usecase.NewItem(c.Context, s, a)
				if msg, ok := usecase.Refusal(err); ok {
					return nil, fail(2, "%s", msg)
				}
				if err != nil {
					return nil, worksetError(err)
				}
				return res, nil
			})
		},
	}
}

// readBody reads --body: a file, or stdin for "-", bounded.
func readBody(name string, stdin io.Reader) (string, error) {
	if name == "" {
		return "", nil
	}
	r := stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return "", fail(2, "--body %s cannot be read (%v); name a readable file, or - for stdin", name, err)
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxBody+1))
	if err != nil {
		return "", fmt.Errorf("--body: %w", err)
	}
	if len(b) > maxBody {
		return "", fail(2, "--body is more than %d KB; keep the description shorter and link the rest", maxBody>>10)
	}
	return string(b), nil
}
