package graph

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/canon-md/canon/index/safepath"
)

// RepoLibrary reads the built-in query templates and the repository's
// (.canon/queries under root). It needs the root, not the index.
func RepoLibrary(root string) (*Library, error) {
	dir := filepath.Join(root, filepath.FromSlash(QueriesDir))
	return LoadLibrary(Builtin(), templateFS{os.DirFS(dir), root, dir})
}

// templateFS reads the repository's templates as canon reads every file
// of a repository: a regular file inside it (a template that is a link to
// /dev/zero is a broken template, not an endless read), at most
// safepath.ConfigLimit.
type templateFS struct {
	fs.FS
	root, dir string
}

func (t templateFS) ReadFile(name string) ([]byte, error) {
	return safepath.ReadFile(filepath.Join(t.dir, filepath.FromSlash(name)), safepath.ConfigLimit, t.root)
}

// WriteText is the pack as Markdown, for a prompt (canon's text output).
func (p *Pack) WriteText(w io.Writer) error { return p.WriteMarkdown(w) }

// TemplateRow is one template of canon query list.
type TemplateRow struct {
	Name        string `json:"name"`
	Source      string `json:"source"`
	Description string `json:"description,omitempty"`
	Error       string `json:"error,omitempty"`
}

// TemplateList is canon query list: every template, built-in and the
// repository's, the broken ones with their error.
type TemplateList struct {
	Templates []TemplateRow `json:"templates"`
}

// List lists the library's templates by name.
func (l *Library) List() *TemplateList {
	out := &TemplateList{Templates: []TemplateRow{}}
	for _, n := range l.Names() {
		t, err := l.Get(n)
		if err != nil {
			out.Templates = append(out.Templates, TemplateRow{Name: n, Source: repoSource(n), Error: err.Error()})
			continue
		}
		out.Templates = append(out.Templates, TemplateRow{Name: n, Source: t.Source, Description: strings.TrimSpace(t.Description)})
	}
	return out
}

func repoSource(name string) string { return filepath.ToSlash(filepath.Join(QueriesDir, name+".yaml")) }

// WriteText is a line per template: name, source, the first sentence of
// its description (or why it is invalid).
func (tl *TemplateList) WriteText(w io.Writer) error {
	wn, ws := 0, 0
	for _, r := range tl.Templates {
		wn, ws = max(wn, len(r.Name)), max(ws, len(r.Source))
	}
	for _, r := range tl.Templates {
		text := firstSentence(r.Description)
		if r.Error != "" {
			text = "invalid: " + r.Error
		}
		line := fmt.Sprintf("%-*s  %-*s  %s", wn, r.Name, ws, r.Source, text)
		fmt.Fprintln(w, strings.TrimRight(line, " "))
	}
	return nil
}

func firstSentence(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}

// WriteText is the template as YAML, with what it extends resolved, under
// a comment naming its source.
func (t *Template) WriteText(w io.Writer) error {
	y, err := t.YAML()
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "# source: %s\n", t.Source)
	if t.Extends != "" {
		fmt.Fprintf(w, "# extends %s, resolved below\n", t.Extends)
	}
	_, err = w.Write(y)
	return err
}

// Validation is canon query validate: each template checked, and what is
// wrong with it.
type Validation struct {
	Results []ValidationResult `json:"results"`
}

// ValidationResult is one template's check.
type ValidationResult struct {
	Template string   `json:"template"`
	Source   string   `json:"source"`
	OK       bool     `json:"ok"`
	Errors   []string `json:"errors"`
}

// Validate checks template files: the files named (each added to the
// library, so that one may extend another), or every template when none
// is: YAML keys, extends, filters, values. A file that cannot be read is
// an error; a template that is wrong is a result.
func (l *Library) Validate(files []string) (*Validation, error) {
	v := &Validation{}
	add := func(name, source string, parseErr error) {
		r := ValidationResult{Template: name, Source: source, Errors: []string{}}
		if parseErr != nil {
			r.Errors = append(r.Errors, parseErr.Error())
		} else if t, err := l.Resolve(name); err != nil {
			r.Errors = append(r.Errors, err.Error())
		} else {
			for _, err := range t.Validate() {
				r.Errors = append(r.Errors, err.Error())
			}
		}
		r.OK = len(r.Errors) == 0
		v.Results = append(v.Results, r)
	}
	if len(files) == 0 {
		for _, n := range l.Names() {
			t, err := l.Get(n)
			src := repoSource(n)
			if t != nil {
				src = t.Source
			}
			add(n, src, err)
		}
	}
	for _, file := range files {
		data, err := safepath.ReadArgument(file, safepath.ConfigLimit)
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("cannot read %s: %w", file, pe.Err)
		}
		if err != nil {
			return nil, err
		}
		stem := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
		t, perr := ParseTemplate(filepath.ToSlash(file), stem, data)
		if perr == nil {
			l.Add(t)
		}
		add(stem, filepath.ToSlash(file), perr)
	}
	return v, nil
}

// ExitCode is 1 when a template is invalid.
func (v *Validation) ExitCode() int {
	for _, r := range v.Results {
		if !r.OK {
			return 1
		}
	}
	return 0
}

// WriteText is "ok" per good template, each error of a bad one.
func (v *Validation) WriteText(w io.Writer) error {
	for _, r := range v.Results {
		label := r.Source
		if label == "builtin" {
			label = "builtin:" + r.Template + ".yaml"
		}
		if r.OK {
			fmt.Fprintf(w, "%s: ok\n", label)
			continue
		}
		for _, msg := range r.Errors {
			if !strings.HasPrefix(msg, r.Source) {
				msg = label + ": " + msg
			}
			fmt.Fprintln(w, msg)
		}
	}
	return nil
}

// Overrides are one call's options over the configuration's (command-line
// flags, a tool's arguments); nil (or "") keeps the configured value.
type Overrides struct {
	Depth, MaxPerNode, MaxNodes, Budget *int
	Edges                               *string // comma-separated types
	Direction                           *string // out, in or both
}

// OptionError is an option given out of its range: Option names it as
// the command line does.
type OptionError struct{ Option, Msg string }

func (e *OptionError) Error() string { return e.Option + " " + e.Msg }

// With lays o over opt and checks the result: depth 0 to 10, caps and
// budget 0 or more, a direction that is one.
func (opt PackOptions) With(o Overrides) (PackOptions, error) {
	set := func(dst *int, v *int) {
		if v != nil {
			*dst = *v
		}
	}
	set(&opt.Depth, o.Depth)
	set(&opt.MaxPerNode, o.MaxPerNode)
	set(&opt.MaxNodes, o.MaxNodes)
	set(&opt.Budget, o.Budget)
	if o.Edges != nil {
		opt.Edges = ParseEdges(*o.Edges)
	}
	switch {
	case opt.Depth < 0 || opt.Depth > 10:
		return opt, &OptionError{"depth", "must be between 0 and 10"}
	case opt.MaxPerNode < 0 || opt.MaxNodes < 0:
		return opt, &OptionError{"max-per-node", "and --max-nodes must be 0 or more"}
	case opt.Budget < 0:
		return opt, &OptionError{"budget", "must be 0 (no limit) or more"}
	}
	if o.Direction != nil {
		d, err := ParseDirection(*o.Direction)
		if err != nil {
			return opt, &OptionError{"direction", strings.TrimPrefix(err.Error(), "direction ")}
		}
		opt.Direction = d
	}
	return opt, nil
}
