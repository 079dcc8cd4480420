package hooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/canon-md/canon/gitsync"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/human"
	"github.com/canon-md/canon/index/safepath"
	"github.com/canon-md/canon/workset/merge"
)

// The merge driver (docs/merge-driver.md, ADR-0041): git runs
// `canon merge-driver %O %A %B %L %P` for the files .gitattributes marks
// merge=canon; install registers the command in the clone's config and
// writes the attributes in a marked block.

// DriverCommand is the command git runs, as registered in merge.canon.driver.
const DriverCommand = "canon merge-driver %O %A %B %L %P"

const driverName = "canon: canonical Markdown merged field by field, append-only sections joined"

// MergeArgs are git's arguments to the driver.
type MergeArgs struct {
	Base, Ours, Theirs string // %O %A %B: files git made; the result goes into Ours
	MarkerSize         int    // %L
	Path               string // %P: the file being merged, for messages
}

// MergeOutcome is what the driver did to one file.
type MergeOutcome struct {
	Path     string   `json:"path"`
	Conflict bool     `json:"conflict"`
	Fallback string   `json:"fallback,omitempty"` // why the whole file was merged line by line
	Fields   []string `json:"fields"`             // frontmatter fields both sides changed, merged
	Sections []string `json:"sections"`           // append-only sections joined
}

// ExitCode is git's protocol: 0 merged, 1 conflicts left in the file.
func (o *MergeOutcome) ExitCode() int {
	if o.Conflict {
		return 1
	}
	return 0
}

// WriteText prints nothing on a clean merge (git prints its own lines);
// a fallback and a conflict are said on stderr by the caller.
func (o *MergeOutcome) WriteText(io.Writer) error { return nil }

// Notes are the lines the driver says on stderr.
func (o *MergeOutcome) Notes() []string {
	var out []string
	if o.Fallback != "" {
		out = append(out, fmt.Sprintf("merge-driver: %s: %s; merged it line by line with git merge-file", human.QuotePath(o.Path), o.Fallback))
	}
	if o.Conflict {
		out = append(out, fmt.Sprintf("merge-driver: %s: conflicting changes are marked in the file; resolve them, then git add it", human.QuotePath(o.Path)))
	}
	return out
}

// MergeDriver merges one file for git: the three versions are read
// (bounded, inside the repository), merged by workset/merge with git
// merge-file for the line merge, and the result written atomically into
// git's file for ours.
func MergeDriver(ctx context.Context, dir string, a MergeArgs) (*MergeOutcome, error) {
	r, err := gitsync.Discover(dir)
	if err != nil {
		return nil, err
	}
	files := gitsync.MergeFiles{MarkerSize: a.MarkerSize}
	for _, p := range []struct {
		arg string
		to  *string
	}{{a.Ours, &files.Ours}, {a.Base, &files.Base}, {a.Theirs, &files.Theirs}} {
		abs := p.arg
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(dir, abs)
		}
		abs, err = filepath.Abs(abs)
		if err != nil {
			return nil, err
		}
		if err := safepath.Inside(abs, r.Root, r.GitDir, r.CommonDir); err != nil {
			return nil, fmt.Errorf("merge-driver: %s: %w; git gives the driver files in the repository", p.arg, err)
		}
		*p.to = abs
	}
	out := &MergeOutcome{Path: a.Path, Fields: []string{}, Sections: []string{}}
	opt := merge.Options{Lines: func(base, ours, theirs []byte) ([]byte, bool, error) {
		return r.MergeFile(ctx, files, base, ours, theirs)
	}}
	limit := int64(config.Default().MaxFileSize)
	cfg, cerr := config.Load(r.Root)
	if cerr == nil {
		opt.AppendOnly, limit = cfg.Merge.AppendOnly, int64(cfg.MaxFileSize)
	}
	var texts [3][]byte
	tooLarge := false
	for i, p := range []string{files.Base, files.Ours, files.Theirs} {
		b, err := safepath.ReadFile(p, limit, r.Root, r.GitDir, r.CommonDir)
		if tl := (*safepath.TooLargeError)(nil); errors.As(err, &tl) {
			tooLarge = true
			break
		}
		if err != nil {
			return nil, err
		}
		texts[i] = b
	}
	if tooLarge {
		// git merges it as it would without the driver.
		return out, gitMergeInPlace(ctx, r, files, out, "it is larger than max_file_size, more than the driver reads")
	}
	// A configuration canon cannot read leaves the defaults (only the
	// note sections canon log writes in are append-only): canon check reports the error, and a merge
	// is no place to stop for it.
	res, err := merge.Merge(texts[0], texts[1], texts[2], opt)
	if err != nil {
		return nil, err
	}
	out.Conflict, out.Fallback = res.Conflict, res.Fallback
	out.Fields, out.Sections = append(out.Fields, res.Fields...), append(out.Sections, res.Sections...)
	if err := safepath.WriteFile(files.Ours, res.Merged, gitsync.FileMode(files.Ours), r.Root, r.GitDir, r.CommonDir); err != nil {
		return nil, fmt.Errorf("write the merged %s: %w", a.Path, err)
	}
	return out, nil
}

// gitMergeInPlace merges a file the driver does not read with git
// merge-file alone, as git would have.
func gitMergeInPlace(ctx context.Context, r *gitsync.Repo, files gitsync.MergeFiles, out *MergeOutcome, why string) error {
	files.AsGiven = true
	merged, conflict, err := r.MergeFile(ctx, files, nil, nil, nil)
	if err != nil {
		return err
	}
	out.Conflict, out.Fallback = conflict, why
	return safepath.WriteFile(files.Ours, merged, gitsync.FileMode(files.Ours), r.Root, r.GitDir, r.CommonDir)
}

// MergeSetup is what install or uninstall did to the merge driver.
type MergeSetup struct {
	Config     string   `json:"config"`     // registered, unchanged, removed, absent
	Attributes string   `json:"attributes"` // .gitattributes: created, added, updated, unchanged, removed, absent
	Patterns   []string `json:"patterns"`   // the paths the block sends to the driver
}

func (m *MergeSetup) writeText(w io.Writer) {
	if m == nil {
		return
	}
	fmt.Fprintf(w, "merge driver   %s (merge.canon.driver)\n", m.Config)
	fmt.Fprintf(w, "%-14s %s (%s merge=canon)\n", ".gitattributes", m.Attributes, strings.Join(m.Patterns, ", "))
}

// InstallMergeDriver registers the driver in the clone's config and writes
// the attributes block for the configured roots' Markdown. Both are
// idempotent.
func InstallMergeDriver(ctx context.Context, r *gitsync.Repo) (*MergeSetup, error) {
	cfg, err := config.Load(r.Root)
	if err != nil {
		return nil, err
	}
	ms := &MergeSetup{Patterns: attributePatterns(cfg.Roots)}
	ms.Config = "unchanged"
	if cur, _ := r.Git(ctx, "config", "--local", "--get", "merge.canon.driver"); strings.TrimSpace(string(cur)) != DriverCommand {
		if _, err := r.Git(ctx, "config", "--local", "--end-of-options", "merge.canon.driver", DriverCommand); err != nil {
			return nil, fmt.Errorf("register the merge driver: %w", err)
		}
		if _, err := r.Git(ctx, "config", "--local", "--end-of-options", "merge.canon.name", driverName); err != nil {
			return nil, fmt.Errorf("register the merge driver: %w", err)
		}
		ms.Config = "registered"
	}
	ms.Attributes, err = writeAttributes(r.Root, ms.Patterns)
	return ms, err
}

// UninstallMergeDriver removes the registration and exactly the block
// install wrote; the user's lines stay byte for byte.
func UninstallMergeDriver(ctx context.Context, r *gitsync.Repo) (*MergeSetup, error) {
	ms := &MergeSetup{Config: "absent", Patterns: []string{}}
	if _, err := r.Git(ctx, "config", "--local", "--get-regexp", `^merge\.canon\.`); err == nil {
		if _, err := r.Git(ctx, "config", "--local", "--remove-section", "merge.canon"); err != nil {
			return nil, fmt.Errorf("remove the merge driver's registration: %w", err)
		}
		ms.Config = "removed"
	}
	var err error
	ms.Attributes, err = removeAttributes(r.Root)
	return ms, err
}

const (
	attrBegin      = "# >>> canon merge driver: canon hooks uninstall removes this block"
	attrEnd        = "# <<< canon merge driver"
	attrAddedEOL   = "; and the line end before it"
	attrAddedFile  = "; and the file it created"
	attributesFile = ".gitattributes"
)

// attributePatterns are the gitattributes patterns of the roots' Markdown:
// each root's folder as it is named, never a glob. git reads a pattern
// as a wildmatch glob, a leading ! as a negative pattern (which it
// ignores, with a warning on every command) and a leading # as a comment,
// so those are escaped with a backslash (literalPattern); a pattern with a
// space, a tab or a double quote is written in double quotes with C
// escapes, as git unquotes it before it reads the glob.
func attributePatterns(roots []string) []string {
	var out []string
	for _, root := range roots {
		p := "*.md"
		if root != "." && root != "" {
			p = literalPattern(strings.TrimSuffix(filepath.ToSlash(root), "/")) + "/**/*.md"
		}
		if strings.ContainsAny(p, " \t\"") {
			p = `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\t", `\t`).Replace(p) + `"`
		}
		out = append(out, p)
	}
	return out
}

// literalPattern writes a folder's path as a gitattributes pattern that
// matches that folder alone: a backslash before each of git's wildcards
// and its escape (* ? [ ] \), and before a leading ! or #, as
// gitattributes and gitignore read "\!" ("[ab]" is a glob that matches a/,
// "!docs" a negative pattern, "[attr]x" a macro's definition).
func literalPattern(dir string) string {
	var b strings.Builder
	for i, r := range dir {
		if strings.ContainsRune(`*?[]\`, r) || i == 0 && (r == '!' || r == '#') {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// block finds canon's block in the file's text: its bytes [start, end)
// and the begin line.
func block(text string) (start, end int, begin string, ok bool) {
	i := strings.Index(text, attrBegin)
	if i < 0 || (i > 0 && text[i-1] != '\n') {
		return 0, 0, "", false
	}
	j := strings.Index(text[i:], attrEnd)
	if j < 0 {
		return 0, 0, "", false
	}
	end = i + j + len(attrEnd)
	if strings.HasPrefix(text[end:], "\r\n") {
		end += 2
	} else if strings.HasPrefix(text[end:], "\n") {
		end++
	}
	line := text[i:]
	if k := strings.IndexByte(line, '\n'); k >= 0 {
		line = line[:k]
	}
	return i, end, strings.TrimRight(line, "\r"), true
}

func readAttributes(root string) (string, bool, error) {
	b, err := safepath.ReadFile(filepath.Join(root, attributesFile), safepath.ConfigLimit, root)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	return string(b), err == nil, err
}

func writeAttributes(root string, patterns []string) (string, error) {
	text, exists, err := readAttributes(root)
	if err != nil {
		return "", err
	}
	eol := "\n"
	if i := strings.IndexByte(text, '\n'); i > 0 && text[i-1] == '\r' {
		eol = "\r\n"
	}
	// The configuration refuses a root with a control character; this is
	// the second guard: a line break in a pattern would write lines of its
	// own into a file git reads for every path (a "* text" line turned a
	// binary committed after it into text).
	for _, p := range patterns {
		if strings.IndexFunc(p, unicode.IsControl) >= 0 {
			return "", fmt.Errorf("canon writes no line with a control character into %s, and the pattern %q holds one; write the roots in %s without control characters", attributesFile, p, config.File)
		}
	}
	body := func(begin string) string {
		var b strings.Builder
		b.WriteString(begin + eol)
		for _, p := range patterns {
			b.WriteString(p + " merge=canon" + eol)
		}
		b.WriteString(attrEnd + eol)
		return b.String()
	}
	did := "added"
	if start, end, begin, ok := block(text); ok {
		want := body(begin)
		if text[start:end] == want {
			return "unchanged", nil
		}
		text, did = text[:start]+want+text[end:], "updated"
	} else {
		begin := attrBegin
		switch {
		case !exists:
			begin += attrAddedFile
			did = "created"
		case text != "" && !strings.HasSuffix(text, "\n"):
			begin += attrAddedEOL
			text += eol
		}
		text += body(begin)
	}
	mode := os.FileMode(0o644)
	return did, safepath.WriteFile(filepath.Join(root, attributesFile), []byte(text), mode, root)
}

func removeAttributes(root string) (string, error) {
	text, exists, err := readAttributes(root)
	if err != nil || !exists {
		return "absent", err
	}
	start, end, begin, ok := block(text)
	if !ok {
		return "absent", nil
	}
	p := filepath.Join(root, attributesFile)
	if strings.HasSuffix(begin, attrAddedFile) && start == 0 && end == len(text) {
		return "removed", safepath.Remove(p, root)
	}
	if strings.HasSuffix(begin, attrAddedEOL) {
		if strings.HasSuffix(text[:start], "\r\n") {
			start -= 2
		} else if strings.HasSuffix(text[:start], "\n") {
			start--
		}
	}
	return "removed", safepath.WriteFile(p, []byte(text[:start]+text[end:]), gitsync.FileMode(p), root)
}

// DriverState says whether .gitattributes sends files to the driver and
// whether this clone has registered it.
type DriverState struct {
	Named      bool `json:"named_in_gitattributes"`
	Registered bool `json:"registered"`
}

func (d DriverState) writeText(w io.Writer) {
	switch {
	case d.Named && d.Registered:
		fmt.Fprintln(w, "merge driver   registered; .gitattributes sends Markdown merges to it")
	case d.Named:
		fmt.Fprintln(w, "merge driver   NOT REGISTERED in this clone, though .gitattributes names it")
	}
}

// Problem is the sentence for a driver named and not registered ("" when
// all is well).
func (d DriverState) Problem() string {
	if !d.Named || d.Registered {
		return ""
	}
	return ".gitattributes sends Markdown merges to canon's merge driver, but this clone has not registered it (merge.canon.driver), so git merges those files line by line, without a word; run canon hooks install"
}

// MergeDriverState reads .gitattributes and, when it names the driver,
// asks git whether the clone registered it: the one fork is paid only
// in repositories that use the driver.
func MergeDriverState(ctx context.Context, r *gitsync.Repo) DriverState {
	var d DriverState
	text, _, err := readAttributes(r.Root)
	if err != nil || !namesDriver(text) {
		return d
	}
	d.Named = true
	// The clone's own config first: no process when canon registered it.
	if b, err := safepath.ReadFile(filepath.Join(r.CommonDir, "config"), safepath.ConfigLimit, r.CommonDir); err == nil && bytes.Contains(b, []byte(`[merge "canon"]`)) && bytes.Contains(b, []byte("merge-driver")) {
		d.Registered = true
		return d
	}
	out, err := r.Git(ctx, "config", "--get", "merge.canon.driver")
	d.Registered = err == nil && strings.TrimSpace(string(out)) != ""
	return d
}

func namesDriver(text string) bool {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "#") {
			continue
		}
		for _, f := range strings.Fields(line) {
			if f == "merge=canon" {
				return true
			}
		}
	}
	return false
}
