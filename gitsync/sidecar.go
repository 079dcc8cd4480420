package gitsync

import (
	"encoding/hex"
	"fmt"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/canon-md/canon/gitsync/gitfile"
	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/human"
	"github.com/canon-md/canon/index/scan"
)

// Sidecars in other refs (config.Sidecars, issue 43): a KEP's state is
// in the kep.yaml beside its README.md, so a branch that moves a KEP
// changes kep.yaml alone. An overlay reads such a README as the index
// reads it, with its sidecar: its version is the README's blob id and the
// sidecar's joined by a + (sideVersion), so that every comparison of
// versions (the merge base's, HEAD's stored stamp, a trunk's) sees the
// sidecar move, and the blob ids are split again where a blob is read.

// sideVersion is a README's version beside the blob side ("": none) of
// the i-th of config.Sidecars (written after a # past the first).
func sideVersion(readme, side string, i int) string {
	switch {
	case side == "" || readme == "":
		return readme
	case i > 0:
		return readme + "+" + side + "#" + strconv.Itoa(i)
	}
	return readme + "+" + side
}

// splitVersion is sideVersion undone.
func splitVersion(v string) (readme, side string, i int) {
	readme, side, _ = strings.Cut(v, "+")
	side, n, ok := strings.Cut(side, "#")
	if ok {
		i, _ = strconv.Atoi(n)
	}
	return readme, side, i
}

// diffCacheScope is what the kept diffs were filtered by (rootFilter):
// the roots, and the sidecars' names, so that diffs kept before a sidecar
// was learned, which do not list it, are not taken after.
func (s *Session) diffCacheScope() []string {
	out := slices.Clone(s.Cfg.Roots)
	for _, sc := range s.Cfg.Sidecars {
		out = append(out, "\x01sidecar:"+sc.File)
	}
	return out
}

// besideRef is besideChanges for a diff between the commits from ("":
// none) and to of other refs: a sidecar changed is its README changed,
// and each README's versions hold its sidecar's blob at either commit.
func (s *Session) besideRef(objs *Objects, from, to string, changes []TreeChange) ([]TreeChange, error) {
	if len(s.Cfg.Sidecars) == 0 {
		return changes, nil
	}
	var out []TreeChange
	readmes := map[string]bool{}
	for _, c := range changes {
		if scan.IsMarkdown(c.Path) {
			out = append(out, c)
			readmes[c.Path] = len(scan.SidecarsOf(s.Cfg, c.Path)) > 0
		}
	}
	for _, c := range changes {
		if scan.IsMarkdown(c.Path) {
			continue
		}
		if p := path.Join(path.Dir(c.Path), config.SidecarBeside); !readmes[p] {
			readmes[p] = true
			out = append(out, TreeChange{Path: p, From: "?", To: "?"}) // blobs below
		}
	}
	var a, b *treeFolders
	if from != "" {
		t, err := objs.CommitTree(from)
		if err != nil {
			return nil, err
		}
		a = newTreeFolders(objs, t)
	}
	t, err := objs.CommitTree(to)
	if err != nil {
		return nil, err
	}
	b = newTreeFolders(objs, t)
	kept := out[:0]
	for _, c := range out {
		if !readmes[c.Path] {
			kept = append(kept, c)
			continue
		}
		if c.From, err = s.readmeVersion(a, c.Path, c.From); err != nil {
			return nil, err
		}
		if c.To, err = s.readmeVersion(b, c.Path, c.To); err != nil {
			return nil, err
		}
		if c.From != c.To {
			kept = append(kept, c)
		}
	}
	sort.Slice(kept, func(i, j int) bool { return kept[i].Path < kept[j].Path })
	return kept, nil
}

// readmeVersion is the version of the README at p in the tree f reads
// (nil: none): its blob (known, unless "?") and its first sidecar's.
func (s *Session) readmeVersion(f *treeFolders, p, known string) (string, error) {
	if f == nil {
		return "", nil
	}
	var err error
	if known == "?" {
		if known, err = f.blob(p); err != nil {
			return "", err
		}
	}
	if known == "" {
		return "", nil
	}
	for i, sp := range scan.SidecarsOf(s.Cfg, p) {
		side, err := f.blob(sp)
		if err != nil || side != "" {
			return sideVersion(known, side, i), err
		}
	}
	return known, nil
}

// treeFolders reads the folders of one commit's tree, each at most once:
// a README and its sidecars are in one folder, and the READMEs of a
// diff share the folders above them.
type treeFolders struct {
	objs *Objects
	root plumbing.Hash
	dirs map[string][]byte // a folder's entries by its path ("" the root); nil: no such folder
}

func newTreeFolders(objs *Objects, root plumbing.Hash) *treeFolders {
	return &treeFolders{objs: objs, root: root, dirs: map[string][]byte{}}
}

// folder is the entries of the folder at dir ("" the root), nil when the
// tree has no such folder.
func (f *treeFolders) folder(dir string) ([]byte, error) {
	if data, ok := f.dirs[dir]; ok {
		return data, nil
	}
	var data []byte
	var err error
	if dir == "" {
		data, err = f.objs.readTree(f.root)
	} else {
		parent, name := "", dir
		if i := strings.LastIndexByte(dir, '/'); i >= 0 {
			parent, name = dir[:i], dir[i+1:]
		}
		var up []byte
		if up, err = f.folder(parent); err != nil {
			return nil, err
		}
		e, found, ferr := findEntry(up, name)
		if err = ferr; err == nil && found && e.Mode == filemode.Dir {
			var h plumbing.Hash
			copy(h[:], e.Hash)
			data, err = f.objs.readTree(h)
			if data == nil && err == nil {
				data = []byte{}
			}
		}
	}
	if err != nil {
		return nil, err
	}
	f.dirs[dir] = data
	return data, nil
}

// blob is the blob id of the file at p: "" when there is none (or it is
// not a file).
func (f *treeFolders) blob(p string) (string, error) {
	dir, name := "", p
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		dir, name = p[:i], p[i+1:]
	}
	data, err := f.folder(dir)
	if err != nil || data == nil {
		return "", err
	}
	e, found, err := findEntry(data, name)
	if err != nil || !found || !isFile(e.Mode) {
		return "", err
	}
	return hex.EncodeToString(e.Hash), nil
}

// findEntry is the entry named name among a tree's entries.
func findEntry(data []byte, name string) (gitfile.TreeEntry, bool, error) {
	for len(data) > 0 {
		e, rest, err := gitfile.NextEntry(data)
		if err != nil {
			return gitfile.TreeEntry{}, false, err
		}
		if string(e.Name) == name {
			return e, true, nil
		}
		data = rest
	}
	return gitfile.TreeEntry{}, false, nil
}

// sidecar reads a sidecar's blob, within config.MaxSidecarBytes: a larger
// one is not read, and over is its size.
func (o *Objects) sidecar(oid string) (data []byte, over int64, err error) {
	h := plumbing.NewHash(oid)
	n, err := o.size(h)
	if err != nil {
		return nil, 0, err
	}
	if n > config.MaxSidecarBytes {
		return nil, n, nil
	}
	_, data, err = o.raw(h)
	return data, 0, err
}

// oversizedSidecar is why a document of another ref is not read: the
// sidecar beside it, whose fields are its own, is over
// config.MaxSidecarBytes (size), as the working tree's would not be read.
func (s *Session) oversizedSidecar(p string, i int, size int64) string {
	name := "its sidecar"
	if sc := scan.SidecarsOf(s.Cfg, p); i < len(sc) {
		name = human.Quote(path.Base(sc[i]))
	}
	return fmt.Sprintf("has a %s beside it of %s, more than the %s canon reads of one, so its fields are not read",
		name, human.Bytes(size), human.Bytes(config.MaxSidecarBytes))
}

// documentOf is the document a written path changes: the README beside
// a sidecar (a kep.yaml canon set wrote), else the path itself.
func (s *Session) documentOf(p string) string {
	if s.Scope.IsSidecarPath(p) {
		return path.Join(path.Dir(p), config.SidecarBeside)
	}
	return p
}
