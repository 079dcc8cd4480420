package edit

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/safepath"
	"github.com/canon-md/canon/index/scan"
)

// File is one file of a change set: what it holds and what it is to
// hold. Its JSON is the files list of promote's and id rename's answers
// (docs/promote.md, docs/ids.md).
type File struct {
	Path string `json:"path"`
	// Key is the caller's name for it: a document's node key.
	Key string `json:"key"`
	// New says the file does not exist yet: the set creates it.
	New bool `json:"new,omitempty"`
	// Edits counts what the caller changed in it (its findings, the
	// references it rewrote: the JSON says findings, promote's word).
	Edits int `json:"findings"`
	// Updated is the date Touch wrote into the updated: field; Note says
	// why it left the frontmatter alone when it did.
	Updated string `json:"updated,omitempty"`
	Note    string `json:"note,omitempty"`
	// From is the path the file had before (a rename: Path is written,
	// From removed).
	From string `json:"from,omitempty"`
	// Markdown marks a Markdown file outside the documents (a README, a
	// page of docs/ that canon does not index) whose links id rename
	// rewrites: only such a file is written outside the roots.
	Markdown bool `json:"markdown,omitempty"`
	// Remove says the set removes the file.
	Remove bool   `json:"removed,omitempty"`
	Before []byte `json:"-"`
	After  []byte `json:"-"`
}

// changes reports whether writing the file changes anything.
func (f *File) changes() bool {
	return f.New || f.Remove || f.From != "" || !bytes.Equal(f.Before, f.After)
}

// Set is a change set over the working tree: the files it creates,
// edits, renames and removes, each read once and written once, all or
// none (Apply). It is also the working tree as the set leaves it (Read,
// Exists, Paths), so that the edits planned after others see them.
type Set struct {
	root  string
	scope *scan.Scope
	files map[string]*File // by the path it will have
	gone  map[string]bool  // paths the set moves away from or removes
}

// NewSet starts an empty change set over the working tree at root, whose
// documents scope says.
func NewSet(root string, scope *scan.Scope) *Set {
	return &Set{root: root, scope: scope, files: map[string]*File{}, gone: map[string]bool{}}
}

// Read is rel's content as the set leaves it: what the set writes there,
// else the file in the working tree (read as a document is, within its
// bounds). A path the set moves away from or removes does not exist.
func (s *Set) Read(rel string) ([]byte, error) {
	if f := s.files[rel]; f != nil && !f.Remove {
		return f.After, nil
	}
	if s.gone[rel] {
		return nil, fmt.Errorf("%s: %w", rel, os.ErrNotExist)
	}
	return s.read(rel)
}

// Exists says whether rel is a file once the set is written.
func (s *Set) Exists(rel string) bool {
	if f := s.files[rel]; f != nil {
		return !f.Remove
	}
	if s.gone[rel] {
		return false
	}
	_, err := os.Lstat(filepath.Join(s.root, filepath.FromSlash(rel)))
	return err == nil
}

// Paths is the list on (documents, or other Markdown files of the
// working tree) as the set leaves it: the paths moved away from or
// removed left out, the paths moved to from one of them added.
func (s *Set) Paths(on []string) []string {
	if len(s.files) == 0 && len(s.gone) == 0 {
		return on
	}
	out := make([]string, 0, len(on))
	was := map[string]bool{}
	for _, p := range on {
		was[p] = true
		if !s.gone[p] {
			out = append(out, p)
		}
	}
	for p, f := range s.files {
		if f.From != "" && was[f.From] && !was[p] {
			out = append(out, p)
		}
	}
	return out
}

// Open is the file at rel to edit, read on first use: a document of the
// working tree that canon may write (Writable).
func (s *Set) Open(rel string) (*File, error) {
	if f := s.files[rel]; f != nil && !f.Remove {
		return f, nil
	}
	if s.gone[rel] {
		return nil, fmt.Errorf("%s is moved or removed by this change: %w", rel, os.ErrNotExist)
	}
	if _, err := Writable(s.root, rel, s.scope, true, false); err != nil {
		return nil, err
	}
	data, err := s.read(rel)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", rel, err)
	}
	f := &File{Path: rel, Before: data, After: data}
	s.files[rel] = f
	return f, nil
}

// Edit applies an edit of one document's bytes (SetField, AddToList, a
// closure over AppendToSection) to the file at rel; changed says whether
// it changed it. An edit that fails leaves the file as it was.
func (s *Set) Edit(rel string, edit func([]byte) ([]byte, bool, error)) (changed bool, err error) {
	f, err := s.Open(rel)
	if err != nil {
		return false, err
	}
	out, changed, err := edit(f.After)
	if err != nil || !changed {
		return false, err
	}
	f.After = out
	f.Edits++
	return true, nil
}

// SetField sets a frontmatter field of the document at rel (SetField),
// or a field of the sidecar at rel (SetSidecarField).
func (s *Set) SetField(rel, field, value string) (bool, error) {
	fn := SetField
	if isSidecar(s.scope, rel) {
		fn = SetSidecarField
	}
	return s.Edit(rel, func(b []byte) ([]byte, bool, error) { return fn(b, field, value) })
}

// AddToList adds an item to a list field of the document or sidecar at
// rel (AddToList, AddToSidecarList).
func (s *Set) AddToList(rel, field, item string) (bool, error) {
	fn := AddToList
	if isSidecar(s.scope, rel) {
		fn = AddToSidecarList
	}
	return s.Edit(rel, func(b []byte) ([]byte, bool, error) { return fn(b, field, item) })
}

// RemoveFromList takes an item out of a list field of the document or
// sidecar at rel (RemoveFromList, RemoveFromSidecarList).
func (s *Set) RemoveFromList(rel, field, item string) (bool, error) {
	fn := RemoveFromList
	if isSidecar(s.scope, rel) {
		fn = RemoveFromSidecarList
	}
	return s.Edit(rel, func(b []byte) ([]byte, bool, error) { return fn(b, field, item) })
}

// read is rel's content in the working tree, read within a document's
// bounds, or a sidecar's (config.MaxSidecarBytes).
func (s *Set) read(rel string) ([]byte, error) {
	if isSidecar(s.scope, rel) {
		return safepath.ReadFile(filepath.Join(s.root, filepath.FromSlash(rel)), config.MaxSidecarBytes, s.root)
	}
	return s.scope.ReadDocument(rel)
}

// AppendToSection appends an entry to a section of the document at rel
// (AppendToSection).
func (s *Set) AppendToSection(rel string, sec Section, entry, present string) (SectionEdit, error) {
	var edit SectionEdit
	_, err := s.Edit(rel, func(b []byte) ([]byte, bool, error) {
		out, e, err := AppendToSection(b, sec, entry, present)
		edit = e
		return out, err == nil && !e.Present, err
	})
	return edit, err
}

// Create adds a new file at rel holding content: a path canon may write
// where no file is, nor will be once the set is written.
func (s *Set) Create(rel string, content []byte) (*File, error) {
	if _, err := Writable(s.root, rel, s.scope, false, false); err != nil {
		return nil, err
	}
	if s.Exists(rel) {
		return nil, fmt.Errorf("%s exists already", rel)
	}
	f := &File{Path: rel, New: true, After: content}
	if old := s.files[rel]; old != nil && old.Remove {
		// Removed and written again: one file replaced.
		f = &File{Path: rel, Before: old.Before, After: content}
	}
	delete(s.gone, rel)
	s.files[rel] = f
	return f, nil
}

// Rename moves the file at from to to, with its edits so far: to must
// be a path canon may write where no file is.
func (s *Set) Rename(from, to string) (*File, error) {
	f, err := s.Open(from)
	if err != nil {
		return nil, err
	}
	if f.New {
		return nil, fmt.Errorf("%s is not written yet; create it at %s", from, to)
	}
	if _, err := Writable(s.root, to, s.scope, false, f.Markdown); err != nil {
		return nil, err
	}
	if s.Exists(to) {
		return nil, fmt.Errorf("%s exists already, so %s cannot take that name", to, from)
	}
	next := *f
	next.Path = to
	if next.From == "" {
		next.From = from
	}
	delete(s.files, from)
	s.Add(&next)
	return &next, nil
}

// Remove deletes the file at rel when the set is written.
func (s *Set) Remove(rel string) (*File, error) {
	f, err := s.Open(rel)
	if err != nil {
		return nil, err
	}
	if f.New || f.From != "" {
		return nil, fmt.Errorf("%s is not in the working tree yet", rel)
	}
	f.Remove, f.After = true, nil
	s.gone[rel] = true
	return f, nil
}

// Add takes in a file planned elsewhere against the set (Read): a file
// the set already changes keeps its first content as Before and its
// first path as From, so that the set holds one change per file.
func (s *Set) Add(f *File) {
	key := f.Path
	if f.From != "" {
		key = f.From
	}
	next := *f
	if prev := s.files[key]; prev != nil {
		delete(s.files, key)
		next.Before, next.Edits, next.New = prev.Before, prev.Edits+f.Edits, prev.New
		if prev.From != "" {
			next.From = prev.From
		}
	}
	if f.From != "" {
		s.gone[f.From] = true
	}
	delete(s.gone, f.Path)
	s.files[f.Path] = &next
}

// Touch sets the updated: field (SetUpdated) of every file the set edits
// that existed before, recording the date in Updated, or in Note why the
// frontmatter was left alone; a file without frontmatter is left without
// one, and a sidecar without such a field without it (touchSidecar).
func (s *Set) Touch(now time.Time) {
	for _, f := range s.files {
		if f.New || f.Remove || bytes.Equal(f.Before, f.After) {
			continue
		}
		touch := SetUpdated
		if isSidecar(s.scope, f.Path) {
			touch = touchSidecar
		}
		after, changed, err := touch(f.After, now)
		switch {
		case errors.Is(err, ErrNoFrontmatter):
		case err != nil:
			f.Note = "updated: left alone: " + err.Error()
		case changed:
			f.After = after
			f.Updated = now.Format("2006-01-02")
		}
	}
}

// Files are the files the set changes, in path order.
func (s *Set) Files() []*File {
	out := make([]*File, 0, len(s.files))
	for _, f := range s.files {
		if f.changes() {
			out = append(out, f)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// Diff is the unified diff of the set (a dry run).
func (s *Set) Diff() string { return Diff(s.Files()) }

// Diff is the unified diff of files, in their order, with git's a/ and
// b/ prefixes (so that git apply takes it): a new file from /dev/null, a
// renamed one from its old path, a removed one to /dev/null.
func Diff(files []*File) string {
	var b strings.Builder
	for _, f := range files {
		from, to := "a/"+f.Path, "b/"+f.Path
		switch {
		case f.New:
			from = "/dev/null"
		case f.From != "":
			from = "a/" + f.From
		case f.Remove:
			to = "/dev/null"
		}
		b.WriteString(unified(from, to, string(f.Before), string(f.After)))
	}
	return b.String()
}

// unified is the unified diff of before and after. go-udiff numbers a
// hunk's new lines without the context lines it adds between and after
// edits, so a second hunk said +29 where it starts on line 31, and git
// apply read it as an offset: each hunk's new start is its old start
// plus what the hunks before it added and removed.
func unified(from, to, before, after string) string {
	u, err := udiff.ToUnifiedDiff(from, to, before, udiff.Lines(before, after), udiff.DefaultContextLines)
	if err != nil {
		return udiff.Unified(from, to, before, after) // cannot happen: the edits are before's
	}
	delta := 0
	for _, h := range u.Hunks {
		h.ToLine = h.FromLine + delta
		for _, l := range h.Lines {
			switch l.Kind {
			case udiff.Insert:
				delta++
			case udiff.Delete:
				delta--
			}
		}
	}
	return u.String()
}

// Writable checks that rel is a path canon may write and returns its
// absolute path: clean and relative, a Markdown file under the
// configured roots and not excluded (with markdown, any Markdown file
// inside the repository), in a folder that really is inside the
// repository (no symbolic link leads out), and a regular file when it
// exists (never a symbolic link). mustExist refuses a missing file.
func Writable(root, rel string, scope *scan.Scope, mustExist, markdown bool) (string, error) {
	if c, err := safepath.CleanRel(rel); err != nil || c != rel {
		return "", fmt.Errorf("%s is not a path inside the repository", rel)
	}
	side := scope.IsSidecarPath(rel) // kep.yaml beside a document: its fields
	if markdown && !side && !scan.IsMarkdown(rel) {
		return "", fmt.Errorf("%s is not a Markdown file", rel)
	}
	if !markdown && !side && !scope.IsDocumentPath(rel) {
		return "", fmt.Errorf("%s is outside the canonical roots (not a .md file under the configured roots, or excluded); promote writes only documents", rel)
	}
	abs := filepath.Join(root, filepath.FromSlash(rel))
	if err := safepath.Inside(filepath.Dir(abs), root); err != nil {
		return "", fmt.Errorf("%s is reached through a symbolic link that leaves the repository; promote writes only inside it", rel)
	}
	fi, err := os.Lstat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if mustExist {
			return "", fmt.Errorf("%s does not exist in the working tree", rel)
		}
		return abs, nil
	case err != nil:
		return "", err
	case fi.Mode()&fs.ModeSymlink != 0:
		return "", fmt.Errorf("%s is a symbolic link; promote writes only regular files inside the repository", rel)
	case !fi.Mode().IsRegular():
		return "", fmt.Errorf("%s is not a regular file", rel)
	}
	return abs, nil
}
