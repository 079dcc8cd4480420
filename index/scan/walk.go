package scan

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/safepath"
)

// FileInfo is what a stat of a document file says.
type FileInfo struct {
	Path    string // repo-relative, slash separated
	Size    int64
	MtimeNs int64
	Symlink bool
}

// alwaysExcluded are never documents, whatever the configuration says.
var alwaysExcluded = []string{".git", ".cache/"}

// Scope decides which repo paths are documents: under a root, not excluded by
// the configuration or a .gitignore, ending in .md. It reads .gitignore files
// as it meets them, so one Scope serves one walk or many single-path checks.
type Scope struct {
	root    string
	cfg     *config.Config
	base    []gitignore.Pattern            // info/exclude, configured excludes
	perDir  map[string][]gitignore.Pattern // folder → its .gitignore patterns
	matcher map[string]gitignore.Matcher   // folder → matcher of all patterns above it
	dirIgn  map[string]bool                // folder → ignored, itself or by an ancestor
	debris  []string                       // canon's temporary files the last Walk passed (absolute)
}

// NewScope prepares a Scope for the worktree at root. infoExclude is the
// repository's info/exclude file ("" for none).
func NewScope(root string, cfg *config.Config, infoExclude string) *Scope {
	s := &Scope{root: root, cfg: cfg, perDir: map[string][]gitignore.Pattern{},
		matcher: map[string]gitignore.Matcher{}, dirIgn: map[string]bool{}}
	for _, p := range alwaysExcluded {
		s.base = append(s.base, gitignore.ParsePattern(p, nil))
	}
	if infoExclude != "" {
		// info/exclude is git's own file: it stays inside the git folder.
		if data, err := safepath.ReadFile(infoExclude, safepath.IgnoreLimit, filepath.Dir(filepath.Dir(infoExclude))); err == nil {
			s.base = append(s.base, parseIgnore(data, nil)...)
		}
	}
	for _, p := range cfg.Exclude {
		s.base = append(s.base, gitignore.ParsePattern(p, nil))
	}
	return s
}

func parseIgnore(data []byte, domain []string) []gitignore.Pattern {
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}

// dirMatcher returns the matcher for paths inside folder dir ("" for the
// root), loading the .gitignore files on the way down once.
func (s *Scope) dirMatcher(dir string) gitignore.Matcher {
	if m, ok := s.matcher[dir]; ok {
		return m
	}
	var patterns []gitignore.Pattern
	if dir == "" {
		patterns = append(patterns, s.base...)
	} else {
		parent := parentDir(dir)
		pm := s.dirMatcher(parent)
		if len(s.loadDir(dir)) == 0 {
			// Most folders have no .gitignore: the same patterns apply
			// as in the parent.
			s.matcher[dir] = pm
			return pm
		}
		patterns = append(patterns, s.patternsUpTo(parent)...)
	}
	patterns = append(patterns, s.loadDir(dir)...)
	m := gitignore.NewMatcher(patterns)
	s.matcher[dir] = m
	return m
}

func (s *Scope) patternsUpTo(dir string) []gitignore.Pattern {
	var chain []string
	for d := dir; ; d = path.Dir(d) {
		if d == "." || d == "" {
			break
		}
		chain = append(chain, d)
	}
	out := append([]gitignore.Pattern(nil), s.base...)
	out = append(out, s.perDir[""]...)
	for i := len(chain) - 1; i >= 0; i-- {
		out = append(out, s.perDir[chain[i]]...)
	}
	return out
}

func (s *Scope) loadDir(dir string) []gitignore.Pattern {
	if ps, ok := s.perDir[dir]; ok {
		return ps
	}
	var domain []string
	if dir != "" {
		domain = strings.Split(dir, "/")
	}
	// One that cannot be read (a link out, a device, over the limit) is
	// left out as git leaves out one it cannot read.
	data, err := safepath.ReadFile(filepath.Join(s.root, filepath.FromSlash(dir), ".gitignore"), safepath.IgnoreLimit, s.root)
	var ps []gitignore.Pattern
	if err == nil {
		ps = parseIgnore(data, domain)
	}
	s.perDir[dir] = ps
	return ps
}

// Ignored reports whether the repo-relative path is excluded, by its own
// name or because a folder above it is.
func (s *Scope) Ignored(rel string, isDir bool) bool {
	dir := parentDir(rel)
	if s.folderIgnored(dir) {
		return true
	}
	return s.dirMatcher(dir).Match(strings.Split(rel, "/"), isDir)
}

func (s *Scope) folderIgnored(dir string) bool {
	if dir == "" {
		return false
	}
	if ign, ok := s.dirIgn[dir]; ok {
		return ign
	}
	ign := s.Ignored(dir, true)
	s.dirIgn[dir] = ign
	return ign
}

func parentDir(rel string) string {
	dir := path.Dir(rel)
	if dir == "." {
		return ""
	}
	return dir
}

// Root is the worktree the scope walks.
func (s *Scope) Root() string { return s.root }

// InRoots reports whether rel lies under one of the configured roots.
func (s *Scope) InRoots(rel string) bool {
	for _, r := range s.cfg.Roots {
		if r == "." || rel == r || strings.HasPrefix(rel, r+"/") {
			return true
		}
	}
	return false
}

// IsDocumentPath reports whether rel would be a document if it existed: a
// .md file under a root, not excluded. It does not touch rel itself.
func (s *Scope) IsDocumentPath(rel string) bool {
	return IsMarkdown(rel) && s.InRoots(rel) && !s.Ignored(rel, false)
}

// IsMarkdown reports whether the path names a Markdown file.
func IsMarkdown(rel string) bool {
	return strings.EqualFold(path.Ext(rel), ".md")
}

// Walk lists the document files under the roots, sorted by path. It never
// follows a symbolic link; a linked Markdown file is listed with Symlink set
// so the loader can say why it is skipped.
func (s *Scope) Walk() ([]FileInfo, error) {
	var out []FileInfo
	seen := map[string]bool{}
	s.debris = nil
	roots := append([]string(nil), s.cfg.Roots...)
	sort.Strings(roots)
	for _, r := range roots {
		start := filepath.Join(s.root, filepath.FromSlash(r))
		err := filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p == start && errors.Is(err, fs.ErrNotExist) {
					return nil // a configured root that does not exist yet
				}
				return err
			}
			rel, _ := filepath.Rel(s.root, p)
			rel = filepath.ToSlash(rel)
			if d.IsDir() {
				if rel == "." {
					return nil
				}
				if s.Ignored(rel, true) || isNestedRepo(p) {
					return filepath.SkipDir
				}
				return nil
			}
			if _, ok := safepath.IsTemp(d.Name()); ok {
				s.debris = append(s.debris, p)
				return nil
			}
			if !IsMarkdown(rel) || seen[rel] || s.Ignored(rel, false) {
				return nil
			}
			seen[rel] = true
			info, err := d.Info()
			if err != nil {
				return nil // vanished between listing and stat
			}
			out = append(out, FileInfo{Path: rel, Size: info.Size(), MtimeNs: s.Stamped(rel, info.ModTime().UnixNano()),
				Symlink: info.Mode()&fs.ModeSymlink != 0})
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("walk %s: %w", r, err)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// RemoveDebris removes the temporary files of canon processes that are
// gone (a promote killed between writing and renaming) that the last Walk
// passed, and returns their repo paths.
func (s *Scope) RemoveDebris() []string {
	var out []string
	for _, p := range safepath.RemoveStale(s.debris, s.root) {
		rel, _ := filepath.Rel(s.root, p)
		out = append(out, filepath.ToSlash(rel))
	}
	s.debris = nil
	return out
}

// ReadDocument reads the document at the repository path rel as
// ReadDocument does, under this scope's root and size cap.
func (s *Scope) ReadDocument(rel string) ([]byte, error) {
	return ReadDocument(s.root, s.cfg, rel)
}

// Stat returns the FileInfo of one repo path, or ok=false when it is gone or
// not a regular file (or link).
func (s *Scope) Stat(rel string) (FileInfo, bool) {
	info, err := os.Lstat(filepath.Join(s.root, filepath.FromSlash(rel)))
	if err != nil || info.IsDir() {
		return FileInfo{}, false
	}
	return FileInfo{Path: rel, Size: info.Size(), MtimeNs: s.Stamped(rel, info.ModTime().UnixNano()),
		Symlink: info.Mode()&fs.ModeSymlink != 0}, true
}

// isNestedRepo reports a folder that is its own git repository (a submodule
// or a vendored clone): its files are not ours.
func isNestedRepo(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, ".git"))
	return err == nil
}
