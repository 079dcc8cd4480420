package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index/safepath"
)

const (
	agentsBegin = "<!-- canon:agents-md:begin (canon agents-md --write rewrites this part) -->"
	agentsEnd   = "<!-- canon:agents-md:end -->"
)

// agentsGuide is what an agent needs to work with canon from a shell.
const agentsGuide = `## Working with canon

This repository's Markdown (backlog items, ADRs, notes) is indexed by canon.
The files are the truth; canon derives an index, a graph and worksets from
them, and git hooks keep it fresh. Every command catches up with HEAD first.

Get context:
- canon search "words" --json            full-text search over sections
- canon show ID --json                   one document: frontmatter, edges, sections, problems
- canon context --seed ID --budget 4000  a bounded pack around a document
- canon context --for TASK               a task plus the knowledge in its scope
- canon ready / canon blocked            open work, by priority
- canon query run task-context --seed ID a saved query template

Work on a task:
- canon workset new NAME --seed ID       a slice of the graph in .cache/worksets/NAME/
- write findings in .cache/worksets/NAME/notes.md, one per list item:
    - [ID] what happened                 a worklog line
    - [ID] decision: what was decided    also risk: and finding:
- canon workset checkpoint NAME --note "..."   where the work stands
- canon workset resume NAME              the goal, plan, decisions, what changed since
- canon promote NAME --dry-run           the diff promote would make; then without --dry-run

Before committing: canon check (the pre-commit hook runs it; only problems
your change adds block the commit). canon check --all lists everything.

Agents that speak MCP can run canon mcp instead: the same, as tools.
`

func agentsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "agents-md",
		Usage: "print a compact guide for agents (context, findings, promote, hooks); --write puts it in a file between markers",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "write", Usage: "put the guide in `FILE` (AGENTS.md, CLAUDE.md, ...), replacing an earlier one between canon's markers"},
			jsonFlag,
		},
		Action: func(c *cli.Context) error {
			path := c.String("write")
			if path == "" {
				if c.Bool("json") {
					return writeJSON(e.stdout, map[string]string{"guide": agentsGuide})
				}
				_, err := fmt.Fprint(e.stdout, agentsGuide)
				return err
			}
			repo, err := gitsync.Discover(e.dir)
			if err != nil {
				return err
			}
			abs, err := filepath.Abs(path)
			if err != nil {
				return err
			}
			old, err := os.ReadFile(abs)
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("read %s: %w", path, err)
			}
			out, action, err := placeGuide(string(old))
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			if out != string(old) {
				if err := safepath.WriteFile(abs, []byte(out), 0o644, repo.Root); err != nil {
					return fmt.Errorf("write %s: %w; give a file inside the repository", path, err)
				}
			} else {
				action = "unchanged"
			}
			if c.Bool("json") {
				return writeJSON(e.stdout, map[string]string{"path": path, "action": action})
			}
			fmt.Fprintf(e.stdout, "%s: guide %s\n", path, action)
			return nil
		},
	}
}

// placeGuide puts the guide into a file's text: between canon's markers
// when they are there (replaced), else appended.
func placeGuide(text string) (string, string, error) {
	block := agentsBegin + "\n" + agentsGuide + agentsEnd + "\n"
	b, e := strings.Index(text, agentsBegin), strings.Index(text, agentsEnd)
	switch {
	case b < 0 && e < 0:
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		if text != "" {
			text += "\n"
		}
		return text + block, "added", nil
	case b < 0 || e < b:
		return "", "", errors.New("canon's markers are there but not as a begin and an end in that order; remove the stray one and run again")
	}
	end := e + len(agentsEnd)
	if end < len(text) && text[end] == '\n' {
		end++
	}
	return text[:b] + block + text[end:], "updated", nil
}
