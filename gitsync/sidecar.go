package gitsync

import (
	"encoding/hex"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/canon-md/canon/gitsync/gitfile"
	"github.com/canon-md/canon/index/config"
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
	var a, b plumbing.Hash
	var err error
	if from != "" {
		if a, err = objs.CommitTree(from); err != nil {
			return nil, err
		}
	}
	if b, err = objs.CommitTree(to); err != nil {
		return nil, err
	}
	kept := out[:0]
	for _, c := range out {
		if !readmes[c.Path] {
			kept = append(kept, c)
			continue
		}
		if c.From, err = s.readmeVersion(objs, a, c.Path, c.From); err != nil {
			return nil, err
		}
		if c.To, err = s.readmeVersion(objs, b, c.Path, c.To); err != nil {
			return nil, err
		}
		if c.From != c.To {
			kept = append(kept, c)
		}
	}
	sort.Slice(kept, func(i, j int) bool { return kept[i].Path < kept[j].Path })
	return kept, nil
}

// readmeVersion is the version of the README at p in tree t: its blob
// (known, unless "?") and its first sidecar's.
func (s *Session) readmeVersion(objs *Objects, t plumbing.Hash, p, known string) (string, error) {
	if t.IsZero() {
		return "", nil
	}
	var err error
	if known == "?" {
		if known, err = objs.blobAt(t, p); err != nil {
			return "", err
		}
	}
	if known == "" {
		return "", nil
	}
	for i, sp := range scan.SidecarsOf(s.Cfg, p) {
		side, err := objs.blobAt(t, sp)
		if err != nil || side != "" {
			return sideVersion(known, side, i), err
		}
	}
	return known, nil
}

// sidecar reads a sidecar's blob, within config.MaxSidecarBytes: a larger
// one is read as empty, and its document says so (index.Loader).
func (o *Objects) sidecar(oid string) ([]byte, error) {
	h := plumbing.NewHash(oid)
	n, err := o.size(h)
	if err != nil || n > config.MaxSidecarBytes {
		return nil, err
	}
	_, data, err := o.raw(h)
	return data, err
}

// blobAt is the blob id of the file at p in tree t: "" when there is
// none (or it is not a file).
func (o *Objects) blobAt(t plumbing.Hash, p string) (string, error) {
	parts := strings.Split(p, "/")
	for i, name := range parts {
		data, err := o.readTree(t)
		if err != nil {
			return "", err
		}
		next := plumbing.ZeroHash
		for len(data) > 0 {
			e, rest, err := gitfile.NextEntry(data)
			if err != nil {
				return "", err
			}
			data = rest
			if string(e.Name) != name {
				continue
			}
			if i == len(parts)-1 {
				if isFile(e.Mode) {
					return hex.EncodeToString(e.Hash), nil
				}
				return "", nil
			}
			if e.Mode == filemode.Dir {
				copy(next[:], e.Hash)
			}
			break
		}
		if next.IsZero() {
			return "", nil
		}
		t = next
	}
	return "", nil
}

// documentOf is the document a written path changes: the README beside
// a sidecar (a kep.yaml canon set wrote), else the path itself.
func (s *Session) documentOf(p string) string {
	if s.Scope.IsSidecarPath(p) {
		return path.Join(path.Dir(p), config.SidecarBeside)
	}
	return p
}
