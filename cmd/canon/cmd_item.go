package main

import (
	"context"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/cmd/internal/usecase"
	"github.com/canon-md/canon/gitsync"
)

// The write path of one item: canon set, claim, done and log (and the
// MCP tools item_set, item_claim, item_done, item_log). See docs/items.md.

var (
	itemDryRunFlag = &cli.BoolFlag{Name: "dry-run", Usage: "print the unified diff and write nothing"}
	itemCommitFlag = &cli.BoolFlag{Name: "commit", Usage: "commit the item alone once written (git commit --only; the hooks run)"}
)

const itemWrites = "The edit changes the lines it must and nothing else (the frontmatter's style and every other byte\n" +
	"stay), and is checked as canon check would check the file: an edit that brings a new error or\n" +
	"warning (a reference that names nothing, a parent of a kind the rules forbid) is refused and\n" +
	"nothing is written. updated: is set to today when the item has it. The write is atomic, touches\n" +
	"no other file and syncs the index; --commit commits the item alone. See docs/items.md."

func setCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "set",
		Usage:     "change an item's frontmatter fields with minimal edits",
		ArgsUsage: "ITEM FIELD=VALUE ...",
		Description: "ITEM is an id, key or path. Each FIELD=VALUE sets a field (a new one goes after the last); a\n" +
			"state must be one the repository's documents of that kind are in (matched without case, written\n" +
			"as they spell it). --add and --remove change the items of a list field (blocked_by, labels).\n" +
			itemWrites,
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "add", Usage: "add an item to a list field: `FIELD=VALUE` (repeatable)"},
			&cli.StringSliceFlag{Name: "remove", Usage: "remove an item from a list field: `FIELD=VALUE` (repeatable)"},
			itemDryRunFlag, itemCommitFlag, jsonFlag,
		},
		Action: func(c *cli.Context) error {
			if c.NArg() < 1 {
				return fail(2, "set takes the item and what to change: canon set T-1 state=Done")
			}
			a := usecase.ItemArgs{Ref: c.Args().First(), DryRun: c.Bool("dry-run"), Commit: c.Bool("commit"), Command: "canon set"}
			var err error
			if a.Set, err = fieldValues(c.Args().Tail()); err != nil {
				return err
			}
			if a.Add, err = fieldValues(c.StringSlice("add")); err != nil {
				return err
			}
			if a.Remove, err = fieldValues(c.StringSlice("remove")); err != nil {
				return err
			}
			return e.itemCall(c, "canon set", func(ctx context.Context, s *gitsync.Session) (*usecase.ItemEdited, error) {
				return usecase.EditItem(ctx, s, a)
			})
		},
	}
}

func claimCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "claim",
		Usage:     "take an item: its assignee set to you, its state to the repository's in-progress state",
		ArgsUsage: "ITEM",
		Description: "Sets the item's assignee field (assignee, owner or assignees: the one the item or its kind uses;\n" +
			"a list holds the name alone) to --as, and its state to the in-progress state the repository's\n" +
			"documents of that kind use (In Progress, InProgress, Doing ...). An item that is done, in progress\n" +
			"under another name, or taken on another branch or worktree (what canon ready leaves out) is\n" +
			"refused with where it was taken; --force takes it anyway. With --commit the claim is a\n" +
			"commit: other worktrees and, once pushed, other clones see it at their next command.\n" +
			itemWrites,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "as", Usage: "who claims it: `NAME`", EnvVars: []string{"CANON_AGENT"}, DefaultText: "git config user.name"},
			&cli.BoolFlag{Name: "force", Usage: "take it though it is taken: done, in progress under another name, or taken on another branch or worktree"},
			itemDryRunFlag, itemCommitFlag, jsonFlag,
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return fail(2, "claim takes one item: canon claim T-1 --as NAME")
			}
			return e.itemCall(c, "canon claim", func(ctx context.Context, s *gitsync.Session) (*usecase.ItemEdited, error) {
				return usecase.Claim(ctx, s, c.Args().First(), usecase.Claimant(ctx, s, c.String("as")), usecase.ItemArgs{DryRun: c.Bool("dry-run"), Commit: c.Bool("commit"), Force: c.Bool("force")})
			})
		},
	}
}

func doneCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "done",
		Usage:     "close an item: its state set to the repository's done state",
		ArgsUsage: "ITEM",
		Description: "Sets the item's state to the done state the repository's documents of that kind use (Done,\n" +
			"Completed, Closed ...), and with a worklog line (--log) appends it dated.\n" +
			itemWrites,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "log", Usage: "a worklog `LINE` to append with it"},
			&cli.StringFlag{Name: "as", Usage: "the agent `NAME` in the worklog line", EnvVars: []string{"CANON_AGENT"}},
			itemDryRunFlag, itemCommitFlag, jsonFlag,
		},
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return fail(2, "done takes one item: canon done T-1")
			}
			return e.itemCall(c, "canon done", func(ctx context.Context, s *gitsync.Session) (*usecase.ItemEdited, error) {
				return usecase.Done(ctx, s, c.Args().First(), usecase.ItemArgs{Log: c.String("log"), Agent: c.String("as"), DryRun: c.Bool("dry-run"), Commit: c.Bool("commit")})
			})
		},
	}
}

func logCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "log",
		Usage:     "append a dated line to the section an item keeps its notes in",
		ArgsUsage: "ITEM TEXT",
		Description: "Appends YYYY-MM-DD HH:MM [agent=NAME] TEXT (the agent part with --as) at the end of the\n" +
			"section the item keeps its running notes in (Worklog, Backlog.md's Implementation Notes inside\n" +
			"its markers, ...), wherever it is; an item without one gets it where the repository's items of\n" +
			"its kind have it, else a Worklog at the end. The lines follow the style of those already there.\n" +
			"CANON_NOW sets the clock (RFC 3339).\n" +
			itemWrites,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "as", Usage: "the agent `NAME` in the line", EnvVars: []string{"CANON_AGENT"}},
			itemDryRunFlag, itemCommitFlag, jsonFlag,
		},
		Action: func(c *cli.Context) error {
			if c.NArg() < 2 {
				return fail(2, "log takes the item and the line: canon log T-1 \"what was done\"")
			}
			a := usecase.ItemArgs{Ref: c.Args().First(), Log: strings.Join(c.Args().Tail(), " "), Agent: c.String("as"),
				DryRun: c.Bool("dry-run"), Commit: c.Bool("commit"), Command: "canon log"}
			return e.itemCall(c, "canon log", func(ctx context.Context, s *gitsync.Session) (*usecase.ItemEdited, error) {
				return usecase.EditItem(ctx, s, a)
			})
		},
	}
}

// itemCall runs one item edit on a session caught up with HEAD and the
// working tree; its refusals are usage errors (exit 2).
func (e *env) itemCall(c *cli.Context, who string, call func(context.Context, *gitsync.Session) (*usecase.ItemEdited, error)) error {
	return e.with(c, who, func(s *gitsync.Session) (output, error) {
		res, err := call(c.Context, s)
		if msg, ok := usecase.Refusal(err); ok {
			return nil, fail(2, "%s", msg)
		}
		if err != nil {
			return nil, worksetError(err)
		}
		return res, nil
	})
}

// fieldValues reads FIELD=VALUE arguments.
func fieldValues(args []string) ([]usecase.FieldValue, error) {
	out := make([]usecase.FieldValue, 0, len(args))
	for _, a := range args {
		fv, err := usecase.ParseFieldValue(a)
		if msg, ok := usecase.Refusal(err); ok {
			return nil, fail(2, "%s", msg)
		} else if err != nil {
			return nil, err
		}
		out = append(out, fv)
	}
	return out, nil
}
