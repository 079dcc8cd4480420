package workset

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/scan"
)

// Member sources: how a document came into a workset.
const (
	SourceGiven     = "given"     // a seed named by the user
	SourceSearch    = "search"    // a seed found by the query
	SourceAnchor    = "anchor"    // a seed a template's anchor selected
	SourceNeighbour = "neighbour" // reached by expansion
	SourceEnrich    = "enrich"    // added by workset search --enrich
)

// Member is one document of a workset and why it is there.
type Member struct {
	index.DocRef
	OID      string    `json:"oid"` // blob id of the copy
	Seed     bool      `json:"seed"`
	Source   string    `json:"source"`   // given, search, anchor, neighbour, enrich
	Distance int       `json:"distance"` // hops from the seeds
	Via      *Via      `json:"via,omitempty"`
	Matched  []string  `json:"matched,omitempty"` // search terms that matched
	AddedAt  time.Time `json:"added_at"`
	AddedBy  string    `json:"added_by"` // build, or "search: QUERY"
}

// Via is the edge by which a member was reached.
type Via struct {
	From      string `json:"from"`    // node key of the member it was reached from
	FromID    string `json:"from_id"` // its display id
	Edge      string `json:"edge"`
	Direction string `json:"direction"` // out: from → this member; in: this member → from
}

// Info sums up a workset: the line canon workset list shows.
type Info struct {
	Name     string   `json:"name"`
	Path     string   `json:"path"` // repo-relative folder
	Agent    string   `json:"agent,omitempty"`
	Spec     Spec     `json:"spec"`
	Seeds    []string `json:"seeds"` // display ids of the seed members
	Settings Settings `json:"settings"`
	Docs     int      `json:"docs"`
	Bytes    int64    `json:"bytes"` // on disk
	Head     string   `json:"head"`  // the commit it was built from

	CreatedAt  time.Time `json:"created_at"`
	BuiltAt    time.Time `json:"built_at"` // creation or last refresh
	TTL        string    `json:"ttl"`
	ExpiresAt  time.Time `json:"expires_at"`
	AgeSeconds int64     `json:"age_seconds"`      // since creation
	TTLLeft    int64     `json:"ttl_left_seconds"` // negative once expired
	Expired    bool      `json:"expired"`

	Stale        bool          `json:"stale"`
	StaleReasons []StaleReason `json:"stale_reasons"`

	Findings   int `json:"findings"`   // in notes.md
	Unpromoted int `json:"unpromoted"` // of them, not recorded as promoted; Hidden included
	// Hidden counts what looks like a finding inside an HTML comment or
	// fenced code of notes.md (HiddenFindings), never promoted: promote
	// does not take it, and gc and rm keep the workset for it.
	Hidden int `json:"hidden,omitempty"`
	// NotesError is set when notes.md cannot be read.
	NotesError string `json:"notes_error,omitempty"`

	now time.Time // when it was read: what its text measures ages from
}

// Detail is Info with the members: canon workset show.
type Detail struct {
	Info
	Members  []Member       `json:"members"`
	Findings []FindingState `json:"findings"`
}

// Get reads one workset's Info. Before answering it compares the members
// with the repository's index, so that a change no sync reported to it
// still makes it stale.
func Get(ctx context.Context, e *Env, name string) (*Info, error) {
	h, err := e.openHandle(ctx, name)
	if err != nil {
		return nil, err
	}
	defer h.close()
	if err := h.catchDrift(ctx, e); err != nil {
		return nil, err
	}
	return h.info(ctx, e.Now)
}

// Show reads one workset with its members and findings.
func Show(ctx context.Context, e *Env, name string) (*Detail, error) {
	h, err := e.openHandle(ctx, name)
	if err != nil {
		return nil, err
	}
	defer h.close()
	if err := h.catchDrift(ctx, e); err != nil {
		return nil, err
	}
	info, err := h.info(ctx, e.Now)
	if err != nil {
		return nil, err
	}
	d := &Detail{Info: *info}
	if d.Members, err = h.members(ctx); err != nil {
		return nil, err
	}
	if d.Findings, err = h.findings(ctx); err != nil {
		d.Findings = []FindingState{}
	}
	return d, nil
}

// List reads every workset, by name. A folder that cannot be read is
// listed with the error in NotesError rather than hiding the others.
func List(ctx context.Context, e *Env) ([]Info, error) {
	ns, err := names(e.Root)
	if err != nil {
		return nil, err
	}
	out := []Info{}
	for _, n := range ns {
		if _, err := existing(e.Root, n); err != nil {
			continue // not a workset folder
		}
		info, err := Get(ctx, e, n)
		if err != nil {
			out = append(out, Info{Name: n, Path: Dir + "/" + n, NotesError: err.Error(), Seeds: []string{}, StaleReasons: []StaleReason{}})
			continue
		}
		out = append(out, *info)
	}
	return out, nil
}

func (h *handle) info(ctx context.Context, now time.Time) (*Info, error) {
	m, err := h.manifest(ctx)
	if err != nil {
		return nil, err
	}
	info := &Info{Name: h.name, Path: Dir + "/" + h.name, Agent: m[mAgent], Head: m[mHead], TTL: m[mTTL],
		CreatedAt: parseTime(m[mCreated]), BuiltAt: parseTime(m[mBuilt]), ExpiresAt: parseTime(m[mExpires]),
		Seeds: []string{}, Spec: Spec{Seeds: []string{}}}
	// Unreadable, they stay empty; build says the spec is unreadable.
	_ = json.Unmarshal([]byte(m[mSpec]), &info.Spec)
	if info.Spec.Seeds == nil {
		info.Spec.Seeds = []string{}
	}
	_ = json.Unmarshal([]byte(m[mSettings]), &info.Settings)
	if info.Settings.Edges == nil {
		info.Settings.Edges = []string{}
	}
	info.AgeSeconds = int64(now.Sub(info.CreatedAt) / time.Second)
	info.TTLLeft = int64(info.ExpiresAt.Sub(now) / time.Second)
	info.now = now
	info.Expired = !now.Before(info.ExpiresAt)
	ms, err := h.members(ctx)
	if err != nil {
		return nil, err
	}
	info.Docs = len(ms)
	for _, mb := range ms {
		if mb.Seed {
			info.Seeds = append(info.Seeds, mb.ID)
		}
	}
	if info.StaleReasons, err = h.staleReasons(ctx); err != nil {
		return nil, err
	}
	info.Stale = len(info.StaleReasons) > 0
	info.Bytes = folderSize(h.dir)
	fs, hidden, err := h.notes(ctx)
	if err != nil {
		info.NotesError = err.Error()
	}
	info.Findings = len(fs)
	info.Hidden = hidden
	info.Unpromoted = hidden // when in doubt, keep it: gc, rm and list count them
	for _, f := range fs {
		if !f.Promoted {
			info.Unpromoted++
		}
	}
	return info, nil
}

// members reads the members in the order they were chosen.
func (h *handle) members(ctx context.Context) ([]Member, error) {
	out := []Member{}
	err := h.st.EachMember(ctx, func(sm index.SliceMember) error {
		out = append(out, memberOf(sm))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read members of %s: %w", h.name, err)
	}
	return out, nil
}

func folderSize(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// FindingState is a finding of notes.md and whether it was promoted.
type FindingState struct {
	Finding
	Promoted   bool       `json:"promoted"`
	PromotedAt *time.Time `json:"promoted_at,omitempty"`
	DestPath   string     `json:"dest_path,omitempty"`
}

// findings parses notes.md and looks each finding up among the promoted.
func (h *handle) findings(ctx context.Context) ([]FindingState, error) {
	out, _, err := h.notes(ctx)
	return out, err
}

// notes is findings, and how many of HiddenFindings were never promoted.
func (h *handle) notes(ctx context.Context) ([]FindingState, int, error) {
	data, err := readOwn(h.root, h.dir, NotesFile)
	if errors.Is(err, fs.ErrNotExist) {
		return []FindingState{}, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	out := []FindingState{}
	dests := map[string]string{} // destination path → its text, whitespace collapsed; "\x00" when it cannot be read
	shown := ParseNotes(string(data))
	hidden := 0
	for _, f := range HiddenFindings(string(data), shown) {
		if _, ok, err := h.st.Promoted(ctx, f.Hash); err != nil || !ok {
			hidden++
		}
	}
	for _, f := range shown {
		fs := FindingState{Finding: f}
		// A record that cannot be read counts as not promoted; so does
		// one whose text its destination no longer holds (git reset
		// --hard, git checkout -- FILE threw the promoted line away):
		// promote writes it again, and gc and rm keep the notes.
		if p, ok, err := h.st.Promoted(ctx, f.Hash); err == nil && ok && h.holds(dests, p.DestPath, f.Text) {
			t := p.At
			fs.Promoted, fs.PromotedAt, fs.DestPath = true, &t, p.DestPath
		}
		out = append(out, fs)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out, hidden, nil
}

// holds reports whether the file at the repository path dest still says
// text (whitespace aside); a file that cannot be read (moved, removed)
// is not doubted. texts caches what was read.
func (h *handle) holds(texts map[string]string, dest, text string) bool {
	got, ok := texts[dest]
	if !ok {
		data, err := scan.ReadDocument(h.root, nil, dest) // a path the database holds: untrusted
		got = "\x00"
		if err == nil {
			got = collapse(string(data))
		}
		texts[dest] = got
	}
	return got == "\x00" || strings.Contains(got, collapse(text)) || strings.Contains(got, collapse(uncommentable(text)))
}
