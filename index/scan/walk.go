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
	"slices"
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
	base    []ignorePattern              // info/exclude, configured excludes
	perDir  map[string][]ignorePattern   // folder → its .gitignore patterns
	matcher map[string]gitignore.Matcher // folder → matcher of all patterns above it
	files   map[string]*folderRules      // folder → which files in it are ignored, by name
	dirIgn  map[string]bool              // folder → ignored, itself or by an ancestor
	debris  []string                     // canon's temporary files the last Walk passed (absolute)

	portable           bool // a test's: walk with walkDir where walkTree is faster
	direntTypesUnknown bool // a test's: walkTree stats every entry for its type
}

// NewScope prepares a Scope for the worktree at root. infoExclude is the
// repository's info/exclude file ("" for none).
func NewScope(root string, cfg *config.Config, infoExclude string) *Scope {
	s := &Scope{root: root, cfg: cfg, perDir: map[string][]ignorePattern{},
		matcher: map[string]gitignore.Matcher{}, files: map[string]*folderRules{}, dirIgn: map[string]bool{}}
	for _, p := range alwaysExcluded {
		s.base = append(s.base, parsePattern(p, nil))
	}
	if infoExclude != "" {
		// info/exclude is git's own file: it stays inside the git folder.
		if data, err := safepath.ReadFile(infoExclude, safepath.IgnoreLimit, filepath.Dir(filepath.Dir(infoExclude))); err == nil {
			s.base = append(s.base, parseIgnore(data, nil)...)
		}
	}
	for _, p := range cfg.Exclude {
		s.base = append(s.base, parsePattern(p, nil))
	}
	return s
}

func parseIgnore(data []byte, domain []string) []ignorePattern {
	var ps []ignorePattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ps = append(ps, parsePattern(line, domain))
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
		patterns = goGit(s.base)
	} else {
		parent := parentDir(dir)
		pm := s.dirMatcher(parent)
		if len(s.loadDir(dir)) == 0 {
			// Most folders have no .gitignore: the same patterns apply
			// as in the parent.
			s.matcher[dir] = pm
			return pm
		}
		patterns = goGit(s.patternsUpTo(parent))
	}
	patterns = append(patterns, goGit(s.loadDir(dir))...)
	m := gitignore.NewMatcher(patterns)
	s.matcher[dir] = m
	return m
}

func goGit(ps []ignorePattern) []gitignore.Pattern {
	out := make([]gitignore.Pattern, len(ps))
	for i, p := range ps {
		out[i] = p.gg
	}
	return out
}

// fileRules returns the rules for the files directly in folder dir ("" for
// the root), worked out once per folder.
func (s *Scope) fileRules(dir string) *folderRules {
	if fr, ok := s.files[dir]; ok {
		return fr
	}
	patterns := s.patternsUpTo(parentDir(dir))
	var comps []string
	if dir != "" {
		patterns = append(patterns, s.loadDir(dir)...)
		comps = strings.Split(dir, "/")
	}
	fr := compileFolder(patterns, comps)
	s.files[dir] = fr
	return fr
}

func (s *Scope) patternsUpTo(dir string) []ignorePattern {
	var chain []string
	for d := dir; ; d = path.Dir(d) {
		if d == "." || d == "" {
			break
		}
		chain = append(chain, d)
	}
	out := append([]ignorePattern(nil), s.base...)
	out = append(out, s.loadDir("")...)
	for i := len(chain) - 1; i >= 0; i-- {
		out = append(out, s.loadDir(chain[i])...)
	}
	return out
}

func (s *Scope) loadDir(dir string) []ignorePattern {
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
	var ps []ignorePattern
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
	if !isDir {
		return s.fileRules(dir).ignored(dir, path.Base(rel))
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
// so the loader can say why it is skipped. Each folder is read once and its
// ignore rules worked out once (fileRules): a file costs a name match per
// rule and one stat, relative to its open folder.
func (s *Scope) Walk() ([]FileInfo, error) {
	var out []FileInfo
	s.debris = nil
	roots := append([]string(nil), s.cfg.Roots...)
	sort.Strings(roots)
	for _, r := range roots {
		if err := s.walkRoot(r, &out); err != nil {
			return nil, fmt.Errorf("walk %s: %w", r, err)
		}
	}
	if len(roots) > 1 { // roots inside roots: each file once
		sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
		out = slices.CompactFunc(out, func(a, b FileInfo) bool { return a.Path == b.Path })
	}
	return out, nil
}

func (s *Scope) walkRoot(r string, out *[]FileInfo) error {
	rel := path.Clean(r)
	if rel == "." {
		return s.walkFolder("", out)
	}
	abs := filepath.Join(s.root, filepath.FromSlash(rel))
	info, err := os.Lstat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil // a configured root that does not exist yet
	case err != nil:
		return err
	case !info.IsDir():
		if IsMarkdown(rel) && !s.Ignored(rel, false) {
			*out = append(*out, s.fileInfo(rel, info))
		}
		return nil
	case s.Ignored(rel, true) || isNestedRepo(abs):
		return nil
	}
	return s.walkFolder(rel, out)
}

// walkFolder is walkTree, or walkDir when a test asks for the portable
// walk.
func (s *Scope) walkFolder(rel string, out *[]FileInfo) error {
	if s.portable {
		return s.walkDir(rel, out)
	}
	return s.walkTree(rel, out)
}

// walkDir lists the documents in the folder rel (not ignored), and in its
// folders, in path order: a folder's entries sorted as their paths sort
// (a folder's name as if it ended in "/").
func (s *Scope) walkDir(rel string, out *[]FileInfo) error {
	abs := filepath.Join(s.root, filepath.FromSlash(rel))
	f, err := os.Open(abs)
	if rel != "" && errors.Is(err, fs.ErrNotExist) {
		return nil // a folder removed between its parent's listing and now
	}
	if err != nil {
		return err
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil {
		return err
	}
	type entry struct {
		key string
		dir bool
	}
	list := make([]entry, 0, len(entries))
	for _, e := range entries {
		if e.IsDir() {
			list = append(list, entry{e.Name() + "/", true})
		} else {
			list = append(list, entry{e.Name(), false})
		}
	}
	slices.SortFunc(list, func(a, b entry) int { return strings.Compare(a.key, b.key) })
	var rules *folderRules
	dirAt := newStatAt(f, abs)
	for _, e := range list {
		if e.dir {
			sub := joinRel(rel, e.key[:len(e.key)-1])
			if s.Ignored(sub, true) || isNestedRepo(filepath.Join(abs, e.key)) {
				continue
			}
			if err := s.walkDir(sub, out); err != nil {
				return err
			}
			continue
		}
		name := e.key
		if _, ok := safepath.IsTemp(name); ok {
			s.debris = append(s.debris, filepath.Join(abs, name))
			continue
		}
		if !IsMarkdown(name) {
			continue
		}
		if rules == nil {
			rules = s.fileRules(rel)
		}
		if rules.ignored(rel, name) {
			continue
		}
		if fi, ok := dirAt.stat(name); ok { // else vanished between listing and stat
			fi.Path = joinRel(rel, name)
			fi.MtimeNs = s.Stamped(fi.Path, fi.MtimeNs)
			*out = append(*out, fi)
		}
	}
	return nil
}

func joinRel(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// fileInfo is the FileInfo of the document at rel, its time Stamped.
func (s *Scope) fileInfo(rel string, info fs.FileInfo) FileInfo {
	return FileInfo{Path: rel, Size: info.Size(), MtimeNs: s.Stamped(rel, info.ModTime().UnixNano()),
		Symlink: info.Mode()&fs.ModeSymlink != 0}
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
	return s.fileInfo(rel, info), true
}

// isNestedRepo reports a folder that is its own git repository (a submodule
// or a vendored clone): its files are not ours.
func isNestedRepo(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, ".git"))
	return err == nil
}
