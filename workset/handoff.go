package workset

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v4"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/safepath"
)

// A hand-off file is one Markdown document that a person or an agent can
// read without canon, and that canon workset import turns back into a
// workset on another clone: YAML frontmatter with what import needs (the
// spec, the checkpoints), the resume pack, then plan.md and notes.md as
// they are, each in a fence longer than any backtick run inside it.

// HandoffVersion marks a hand-off file's format.
const HandoffVersion = 1

// Handoff is a hand-off file's frontmatter.
type Handoff struct {
	Version     int          `yaml:"canon_workset"`
	Name        string       `yaml:"name"`
	Agent       string       `yaml:"agent,omitempty"`
	TTL         string       `yaml:"ttl,omitempty"`
	Head        string       `yaml:"head"`
	ExportedAt  time.Time    `yaml:"exported_at"`
	Seeds       []string     `yaml:"seeds"`
	Query       string       `yaml:"query,omitempty"`
	Template    string       `yaml:"template,omitempty"`
	Depth       *int         `yaml:"depth,omitempty"`
	Checkpoints []Checkpoint `yaml:"checkpoints"`
}

const (
	fileMarker = "<!-- canon:file "
	fileEnd    = " -->"
)

// Export writes the hand-off file of a workset.
func Export(ctx context.Context, e *Env, name string, opt ResumeOptions) ([]byte, error) {
	h, snap, err := openSnapshot(ctx, e, name)
	if err != nil {
		return nil, err
	}
	defer h.close()
	r, err := h.resume(ctx, e, snap, opt)
	if err != nil {
		return nil, err
	}
	info, cps := snap.info, snap.points
	ho := Handoff{Version: HandoffVersion, Name: name, Agent: info.Agent, TTL: info.TTL, Head: e.Head,
		ExportedAt: e.Now.UTC().Truncate(time.Second), Seeds: info.Spec.Seeds, Query: info.Spec.Query,
		Template: info.Spec.Template, Depth: info.Spec.Depth, Checkpoints: cps}
	// The seeds as the members say, by key, so that import selects the same
	// documents even where an id is ambiguous.
	if len(ho.Seeds) > 0 {
		ho.Seeds = ho.Seeds[:0]
		for _, mb := range snap.members {
			if mb.Seed && mb.Source == SourceGiven {
				ho.Seeds = append(ho.Seeds, mb.Key)
			}
		}
	}
	fm, err := yaml.Marshal(ho)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("---\n")
	b.Write(fm)
	b.WriteString("---\n")
	b.WriteString(strings.Replace(r.Text(), "# Resume: ", "# Hand-off: ", 1))
	b.WriteString("\nThis file was written by `canon workset export`; `canon workset import FILE`\n")
	b.WriteString("makes the workset again on another clone (its documents are selected from\n")
	b.WriteString("that clone's index; the plan, notes and checkpoints are kept).\n")
	for _, f := range []string{PlanFile, NotesFile} {
		data, err := readOwn(h.root, h.dir, f)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		carry(&b, f, data)
	}
	return b.Bytes(), nil
}

// carry writes a file into a hand-off file, as ParseHandoff reads it
// back: a heading, the marker and the content in a fence longer than any
// backtick run inside it.
func carry(b *bytes.Buffer, name string, data []byte) {
	fence := strings.Repeat("`", max(3, longestRun(string(data), '`')+1))
	fmt.Fprintf(b, "\n## %s\n\n%s%s%s\n%s%s\n", name, fileMarker, name, fileEnd, fence, "markdown")
	b.Write(data)
	if len(data) > 0 && data[len(data)-1] != '\n' {
		b.WriteByte('\n')
	}
	fmt.Fprintf(b, "%s\n", fence)
}

func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

// ParseHandoff reads a hand-off file: its frontmatter and the files it
// carries.
func ParseHandoff(data []byte) (*Handoff, map[string]string, error) {
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	rest, ok := strings.CutPrefix(text, "---\n")
	if !ok {
		return nil, nil, fmt.Errorf("not a hand-off file: it does not start with --- frontmatter; write it with canon workset export")
	}
	end := strings.Index(rest, "\n---\n")
	if end < 0 {
		return nil, nil, fmt.Errorf("not a hand-off file: its frontmatter has no closing ---")
	}
	var ho Handoff
	if err := yaml.Unmarshal([]byte(rest[:end+1]), &ho); err != nil {
		return nil, nil, fmt.Errorf("the hand-off file's frontmatter is not valid: %w", err)
	}
	if ho.Version != HandoffVersion {
		return nil, nil, fmt.Errorf("not a hand-off file of this canon (canon_workset: %d, want %d)", ho.Version, HandoffVersion)
	}
	if err := ValidateName(ho.Name); err != nil {
		return nil, nil, fmt.Errorf("the hand-off file names the workset %q: %w", ho.Name, err)
	}
	if ho.Head != "" && !index.IsObjectID(ho.Head) {
		return nil, nil, fmt.Errorf("the hand-off file's head %q is not a commit id; write it again with canon workset export", shorten(ho.Head))
	}
	for _, cp := range ho.Checkpoints {
		if err := validCheckpoint(cp); err != nil {
			return nil, nil, fmt.Errorf("the hand-off file's %w; write it again with canon workset export", err)
		}
	}
	files := map[string]string{}
	lines := strings.Split(rest[end+5:], "\n")
	for i := 0; i < len(lines); i++ {
		name, ok := strings.CutPrefix(lines[i], fileMarker)
		if !ok || !strings.HasSuffix(name, fileEnd) || i+1 >= len(lines) {
			continue
		}
		name = strings.TrimSuffix(name, fileEnd)
		if name != PlanFile && name != NotesFile {
			continue
		}
		open := lines[i+1]
		fence := strings.TrimRight(open, "abcdefghijklmnopqrstuvwxyz")
		if len(fence) < 3 || strings.Trim(fence, "`") != "" {
			return nil, nil, fmt.Errorf("the hand-off file's %s has no code fence after its marker", name)
		}
		var body []string
		closed := false
		for j := i + 2; j < len(lines); j++ {
			if lines[j] == fence {
				closed, i = true, j
				break
			}
			body = append(body, lines[j])
		}
		if !closed {
			return nil, nil, fmt.Errorf("the hand-off file's %s is cut short (its fence is never closed)", name)
		}
		files[name] = strings.Join(body, "\n") + "\n"
	}
	return &ho, files, nil
}

// ImportOptions adjust an import.
type ImportOptions struct {
	Name string // "" keeps the hand-off's name
}

// Import makes a workset from a hand-off file: its documents are selected
// from this clone's index the way the spec says; plan.md, notes.md and the
// checkpoints are the file's.
func Import(ctx context.Context, e *Env, data []byte, opt ImportOptions) (*Info, error) {
	ho, files, err := ParseHandoff(data)
	if err != nil {
		return nil, err
	}
	name := ho.Name
	if opt.Name != "" {
		name = opt.Name
	}
	var ttl time.Duration
	if ho.TTL != "" {
		if ttl, err = time.ParseDuration(ho.TTL); err != nil {
			ttl = 0
		}
	}
	if dir, err := Folder(e.Root, name); err == nil {
		if _, err := os.Lstat(dir); err == nil {
			return nil, fmt.Errorf("%w: %s is already a workset here; import it under another name with --name NAME, or remove it first (canon workset rm %s)", ErrExists, name, name)
		}
	}
	if _, err := Create(ctx, e, name, CreateOptions{Spec: Spec{Seeds: ho.Seeds, Query: ho.Query, Template: ho.Template, Depth: ho.Depth},
		TTL: ttl, Agent: ho.Agent}); err != nil {
		return nil, err
	}
	dir, err := Folder(e.Root, name)
	if err != nil {
		return nil, err
	}
	for f, content := range files {
		if err := safepath.WriteFile(filepath.Join(dir, f), []byte(content), 0o644, e.Root); err != nil {
			return nil, fmt.Errorf("write %s: %w", f, err)
		}
	}
	h, err := e.openHandle(ctx, name)
	if err != nil {
		return nil, err
	}
	defer h.close()
	for _, cp := range ho.Checkpoints {
		cp := cp
		if cp.Members == nil {
			cp.Members = []CheckpointMember{}
		}
		if err := h.insertCheckpoint(ctx, &cp); err != nil {
			return nil, err
		}
	}
	if files[PlanFile] != "" {
		// plan.md is the hand-off's now: refresh must not rewrite it.
		if err := h.st.SetManifest(ctx, map[string]string{mPlanHash: "imported"}); err != nil {
			return nil, err
		}
	}
	return h.info(ctx, e.Now)
}
