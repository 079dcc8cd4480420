package usecase

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/canon-md/canon/index/safepath"
)

// canon agents-md: the plain-text alternative to canon mcp for agents that
// prefer the command line. It is a use case of its own, with no owning
// package below: it is not about git's hooks, and it writes one file
// between canon's markers through safepath.

const (
	AgentsBegin = "<!-- canon:agents-md:begin (canon agents-md --write rewrites this part) -->"
	AgentsEnd   = "<!-- canon:agents-md:end -->"
)

// AgentsGuide is what an agent needs to work with canon from a shell.
const AgentsGuide = `## Working with canon

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

Create or change an item (in the repository's own layout, fields and
states; refused, with the reason, when canon check would report the result):
- canon new KIND "Title" [--parent ID]   the next id, written as the kind's items are
- canon claim ID --as NAME [--commit]    assignee and the in-progress state
- canon log ID "what was done" --as NAME a dated worklog line
- canon set ID FIELD=VALUE [--add F=V]   any field; --dry-run shows the diff
- canon done ID [--log "..."] [--commit] the done state

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

// Guide is what canon agents-md did: the guide printed, or written into
// Path (as given) with Action added, updated or unchanged.
type Guide struct {
	Path   string
	Action string
}

// WriteGuide puts the guide into the file at path (inside root), between
// canon's markers: replacing an earlier one there, else appended. With
// path "" it only returns the guide for printing.
func WriteGuide(root, path string) (*Guide, error) {
	if path == "" {
		return &Guide{}, nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	old, err := safepath.ReadFile(abs, safepath.ConfigLimit, root)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	eol := "\n"
	if strings.Count(string(old), "\r\n") > strings.Count(string(old), "\n")/2 {
		eol = "\r\n" // the file's own line endings, for the lines canon writes
	}
	out, action, err := placeGuide(string(old), eol)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if out == string(old) {
		return &Guide{Path: path, Action: "unchanged"}, nil
	}
	// A folder the file names that is not there yet (docs/agents/AGENTS.md)
	// is made, inside the repository only.
	if err := safepath.MkdirAll(filepath.Dir(abs), 0o755, root); err != nil {
		return nil, fmt.Errorf("make the folder of %s: %w; give a file inside the repository", path, err)
	}
	if err := safepath.WriteFile(abs, []byte(out), 0o644, root); err != nil {
		return nil, fmt.Errorf("write %s: %w; give a file inside the repository", path, err)
	}
	return &Guide{Path: path, Action: action}, nil
}

// JSON is {"guide": TEXT} when printed, {"path", "action"} when written.
func (g *Guide) JSON() any {
	if g.Path == "" {
		return map[string]string{"guide": AgentsGuide}
	}
	return map[string]string{"path": g.Path, "action": g.Action}
}

// WriteText prints the guide, or what was done with the file.
func (g *Guide) WriteText(w io.Writer) error {
	if g.Path == "" {
		_, err := io.WriteString(w, AgentsGuide)
		return err
	}
	_, err := fmt.Fprintf(w, "%s: guide %s\n", g.Path, g.Action)
	return err
}

// PlaceGuide puts the guide into a file's text: between canon's markers
// when they are there (replaced), else appended.
func PlaceGuide(text string) (string, string, error) { return placeGuide(text, "\n") }

// placeGuide is PlaceGuide writing the lines it adds with eol ("\n" or
// "\r\n"); the file's other lines stay as they are.
func placeGuide(text, eol string) (string, string, error) {
	block := strings.ReplaceAll(AgentsBegin+"\n"+AgentsGuide+AgentsEnd+"\n", "\n", eol)
	b, e := strings.Index(text, AgentsBegin), strings.Index(text, AgentsEnd)
	switch {
	case b < 0 && e < 0:
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += eol
		}
		if text != "" {
			text += eol
		}
		return text + block, "added", nil
	case b < 0 || e < b:
		return "", "", errors.New("canon's markers are there but not as a begin and an end in that order; remove the stray one and run again")
	}
	end := e + len(AgentsEnd)
	if strings.HasPrefix(text[end:], "\r\n") {
		end += 2
	} else if end < len(text) && text[end] == '\n' {
		end++
	}
	return text[:b] + block + text[end:], "updated", nil
}
