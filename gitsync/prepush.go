package gitsync

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/ids"
)

// What the pre-push hook compares (issue 25, ADR-0044): the ids the
// pushed commits minted against those the remote side minted since the
// two parted. Everything git hands the hook is checked before any of it
// reaches git: object ids are full hex ids, ref names are git's.

// PushLine is one line of git's pre-push input:
// <local ref> <local oid> <remote ref> <remote oid>.
type PushLine struct {
	LocalRef, LocalOID, RemoteRef, RemoteOID string
}

// Bounds of the pre-push input: git writes one line per ref pushed.
const (
	maxPushLines   = 1000
	maxPushLineLen = 4096
)

// ParsePushLines reads git's pre-push input. A line that is not four
// fields (the local name, which is only ever said; a full object id; a
// full remote ref name; a full object id) is ignored, and given back
// (quoted) for the hook to say so; past maxPushLines the rest is ignored
// too.
func ParsePushLines(r io.Reader) (lines []PushLine, ignored []string, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 256), maxPushLineLen)
	for sc.Scan() {
		text := sc.Text()
		if strings.TrimSpace(text) == "" {
			continue
		}
		if len(lines) >= maxPushLines {
			ignored = append(ignored, fmt.Sprintf("the lines after the first %d", maxPushLines))
			break
		}
		f := strings.Split(text, " ")
		if len(f) != 4 || !localName(f[0]) || !index.IsObjectID(f[1]) || !RefName(f[2]) || !index.IsObjectID(f[3]) {
			ignored = append(ignored, fmt.Sprintf("%q", text))
			continue
		}
		lines = append(lines, PushLine{LocalRef: f[0], LocalOID: f[1], RemoteRef: f[2], RemoteOID: f[3]})
	}
	if err := sc.Err(); err != nil {
		return lines, append(ignored, "the rest: "+err.Error()), nil
	}
	return lines, ignored, nil
}

// ZeroOID reports git's null object id: a ref the push creates (remote)
// or deletes (local).
func ZeroOID(oid string) bool {
	return index.IsObjectID(oid) && strings.Trim(oid, "0") == ""
}

// RefName reports a full ref name git would take (git check-ref-format's
// rules, and refs/ first): no option, no revision syntax, nothing git
// could read as anything but the ref.
func RefName(s string) bool {
	if !strings.HasPrefix(s, "refs/") || len(s) > 1024 || strings.HasSuffix(s, "/") || strings.HasSuffix(s, ".") ||
		strings.Contains(s, "..") || strings.Contains(s, "@{") || strings.Contains(s, "//") || s == "@" {
		return false
	}
	for _, part := range strings.Split(s, "/") {
		if strings.HasPrefix(part, ".") || strings.HasSuffix(part, ".lock") {
			return false
		}
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || strings.IndexByte(" ~^:?*[\\", c) >= 0 {
			return false
		}
	}
	return true
}

// localName reports what git writes as a pushed ref's local name: the
// source as the push named it (HEAD, refs/heads/x, HEAD~1, "(delete)").
// It is only ever said, never passed to git.
func localName(s string) bool {
	if s == "" || len(s) > 1024 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			return false
		}
	}
	return true
}

// remoteName reports a remote's name git could have written (not a URL,
// which git hands the hook when the push names no remote).
func remoteName(s string) bool {
	return s != "" && !strings.HasPrefix(s, "-") && RefName("refs/remotes/"+s+"/HEAD") && !strings.Contains(s, "/")
}

// maxPushDocs bounds the documents of one side the pre-push hook reads:
// a push of a huge range is summarised rather than read.
var maxPushDocs = 5000

// PushMinted is what one pushed ref minted that the remote side minted
// too.
type PushMinted struct {
	Line    PushLine
	Against string // the remote side compared with
	// Collisions are the ids a document the push added carries that a
	// document the remote side added carries too (ids.Collisions: one
	// item on both sides is not one); From names the commit that added
	// each document, by path.
	Collisions []ids.Collision
	From       map[string]string
	// Skipped says why nothing was compared ("" when it was); Note is
	// what the hook says of it (a summarised push, a remote not fetched).
	Skipped, Note string
}

// PushCollisions compares, for one pushed ref, the documents the pushed
// commits added since the merge base with the remote side and those the
// remote side added since. The remote side is the remote ref when the
// push replaces commits of its own (a forced push), else the remote's
// default branch as last fetched (refs/remotes/REMOTE/HEAD): where a new
// branch, or one that only grows, will be merged. Nothing is passed to
// git that ParsePushLines and remoteName did not check.
func (s *Session) PushCollisions(ctx context.Context, remote string, l PushLine) (*PushMinted, error) {
	out := &PushMinted{Line: l, From: map[string]string{}}
	if !index.IsObjectID(l.LocalOID) || !index.IsObjectID(l.RemoteOID) {
		return nil, fmt.Errorf("%w: %q, %q", ErrNotObjectID, l.LocalOID, l.RemoteOID)
	}
	if ZeroOID(l.LocalOID) {
		out.Skipped = "a deletion"
		return out, nil
	}
	other := l.RemoteOID
	if !ZeroOID(other) {
		if _, err := s.Repo.Git(ctx, "cat-file", "-e", "--end-of-options", other+"^{commit}"); err != nil {
			out.Skipped = "not fetched"
			out.Note = fmt.Sprintf("%s is at %s on the remote, which this clone has not fetched: ids not compared (git fetch first)", l.RemoteRef, shortOID(other))
			return out, nil
		}
		if _, err := s.Repo.Git(ctx, "merge-base", "--is-ancestor", "--end-of-options", other, l.LocalOID); err == nil {
			other = "" // the push only grows the remote ref
		}
	}
	out.Against = l.RemoteRef
	if ZeroOID(other) || other == "" {
		if !remoteName(remote) {
			out.Skipped = "a remote without a name"
			return out, nil
		}
		ref := "refs/remotes/" + remote + "/HEAD"
		o, err := s.Repo.Git(ctx, "rev-parse", "--verify", "--quiet", "--end-of-options", ref+"^{commit}")
		if other = strings.TrimSpace(string(o)); err != nil || !index.IsObjectID(other) {
			out.Skipped = ref + " is not here"
			return out, nil
		}
		out.Against = strings.TrimPrefix(ref, "refs/remotes/")
	}
	b, err := s.Repo.Git(ctx, "merge-base", "--end-of-options", l.LocalOID, other)
	base := strings.TrimSpace(string(b))
	if err != nil || !index.IsObjectID(base) {
		out.Skipped = "no common ancestor with " + out.Against
		return out, nil
	}
	if base == l.LocalOID || base == other {
		return out, nil // one side added nothing since: nothing minted twice
	}
	cat, err := s.Repo.StartCatFile(ctx)
	if err != nil {
		cat = nil
	}
	defer cat.Close()
	ours, err := s.addedIdentDocs(ctx, cat, base, l.LocalOID, maxPushDocs)
	if err != nil {
		return nil, err
	}
	theirs, err := s.addedIdentDocs(ctx, cat, base, other, maxPushDocs)
	if err != nil {
		return nil, err
	}
	if ours == nil || theirs == nil {
		out.Skipped = "too large"
		out.Note = fmt.Sprintf("%s: one side adds more than %d documents since the merge base with %s: ids not compared (canon check --new-from %s compares them)", l.LocalRef, maxPushDocs, out.Against, out.Against)
		return out, nil
	}
	side := map[string]string{}
	var docs []ids.Doc
	for _, d := range ours {
		side[d.Path] = l.LocalOID
		docs = append(docs, d)
	}
	for _, d := range theirs {
		if _, both := side[d.Path]; both {
			continue // the same path on both sides: one item
		}
		side[d.Path] = other
		docs = append(docs, d)
	}
	for _, c := range ids.Collisions(docs, s.Cfg) {
		mine, their := false, false
		for _, d := range c.Docs {
			mine = mine || side[d.Path] == l.LocalOID
			their = their || side[d.Path] == other
		}
		if !mine || !their {
			continue
		}
		for _, d := range c.Docs {
			out.From[d.Path] = s.Repo.addedBetween(ctx, base, side[d.Path], d.Path)
		}
		out.Collisions = append(out.Collisions, c)
	}
	return out, nil
}

// addedIdentDocs reads the ids of the documents rev added since base, from
// git's trees (one diff, the added documents' blobs). nil, nil when there
// are more than limit (0: no limit).
func (s *Session) addedIdentDocs(ctx context.Context, cat *CatFile, base, rev string, limit int) ([]ids.Doc, error) {
	raw, err := s.Repo.Git(ctx, "diff", "--raw", "-z", "--no-abbrev", "--no-renames", "--no-ext-diff", "--diff-filter=A", "--end-of-options", base, rev, "--")
	if err != nil {
		return nil, err
	}
	added, err := parseRaw(raw)
	if err != nil {
		return nil, err
	}
	docs := []ids.Doc{}
	n := 0
	for _, c := range added {
		if !s.Scope.IsDocumentPath(c.Path) {
			continue
		}
		if n++; limit > 0 && n > limit {
			return nil, nil
		}
		// A blob over max_file_size is not read, and has no id canon
		// would index.
		l, err := s.loadBlob(ctx, cat, c.Path, c.OID, s.Loader.Fields)
		if err != nil {
			name := rev
			if index.IsObjectID(rev) {
				name = shortOID(rev)
			}
			return nil, fmt.Errorf("read %s as %s has it: %w", c.Path, name, err)
		}
		if l.Doc != nil && l.Doc.ID != "" {
			docs = append(docs, ids.Doc{Path: c.Path, Ident: l.Doc.ID, UID: l.Doc.UID})
		}
	}
	return docs, nil
}

// addedBetween is the short hash of the newest commit of base..rev that
// added the file at path ("" when none did).
func (r *Repo) addedBetween(ctx context.Context, base, rev, path string) string {
	out, err := r.Git(ctx, "log", "-1", "--format=%h", "--diff-filter=A", "--end-of-options", base+".."+rev, "--", Literal(path))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
