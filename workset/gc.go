package workset

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/safepath"
)

// ErrUnpromoted says a workset still holds findings promote has not taken.
var ErrUnpromoted = errors.New("unpromoted findings")

// Remove deletes a workset. One whose notes.md holds findings not recorded
// as promoted is kept unless force is set.
func Remove(ctx context.Context, e *Env, name string, force bool) (*Info, error) {
	h, err := e.openHandle(ctx, name)
	if err != nil {
		return nil, err
	}
	info, err := h.info(ctx, e.Now)
	if err != nil {
		h.close()
		return nil, err
	}
	if info.Unpromoted > 0 && !force {
		h.close()
		return info, fmt.Errorf("%w: %s has %s in notes.md that were never promoted; run canon promote %s first, or rm --force to lose them",
			ErrUnpromoted, name, findingsCount(info.Unpromoted), name)
	}
	unlock, err := h.st.Lock(ctx, e.Who, 30*time.Second)
	if err != nil {
		h.close()
		return nil, err
	}
	h.close()
	defer unlock()
	return info, removeFolder(e.Root, h.dir)
}

func findingsCount(n int) string {
	if n == 1 {
		return "1 finding"
	}
	return fmt.Sprintf("%d findings", n)
}

// removeFolder renames the folder out of the way first, so the workset is
// gone at once even if deleting its files is interrupted (gc removes the
// debris).
func removeFolder(root, dir string) error {
	if err := safepath.Inside(dir, root); err != nil {
		return err
	}
	trash, err := os.MkdirTemp(filepath.Dir(dir), ".rm-"+filepath.Base(dir)+"-")
	if err != nil {
		return err
	}
	os.Remove(trash)
	if err := os.Rename(dir, trash); err != nil {
		return fmt.Errorf("remove workset: %w", err)
	}
	return safepath.RemoveAll(trash, root)
}

// GCOptions adjust a garbage collection.
type GCOptions struct {
	Force  bool // remove expired worksets even with unpromoted findings
	DryRun bool // say what would be removed, remove nothing
}

// GCEntry is one workset gc looked at.
type GCEntry struct {
	Name       string    `json:"name"`
	ExpiresAt  time.Time `json:"expires_at"`
	Unpromoted int       `json:"unpromoted"`
	Reason     string    `json:"reason,omitempty"` // why it was kept
}

// GCResult says what gc did.
type GCResult struct {
	Removed []GCEntry `json:"removed"`
	Kept    []GCEntry `json:"kept"` // expired, kept for their unpromoted findings (or an error)
	Live    int       `json:"live"` // not expired
	Debris  []string  `json:"debris"`

	now    time.Time // when gc ran: what its text measures from
	dryRun bool
}

// debrisAge is how old an interrupted creation or removal must be for gc
// to delete it (a younger one may be in progress).
const debrisAge = time.Hour

// GC removes the worksets whose TTL has run out, except those with
// unpromoted findings (unless Force), and the debris of interrupted
// creations and removals.
func GC(ctx context.Context, e *Env, opt GCOptions) (*GCResult, error) {
	res := &GCResult{Removed: []GCEntry{}, Kept: []GCEntry{}, Debris: []string{}, now: e.Now, dryRun: opt.DryRun}
	list, err := List(ctx, e)
	if err != nil {
		return nil, err
	}
	for _, info := range list {
		if info.NotesError != "" && info.CreatedAt.IsZero() {
			res.Kept = append(res.Kept, GCEntry{Name: info.Name, Reason: "cannot be read: " + info.NotesError})
			continue
		}
		if !info.Expired {
			res.Live++
			continue
		}
		entry := GCEntry{Name: info.Name, ExpiresAt: info.ExpiresAt, Unpromoted: info.Unpromoted}
		switch {
		case info.NotesError != "" && !opt.Force:
			entry.Reason = "notes.md cannot be read: " + info.NotesError
			res.Kept = append(res.Kept, entry)
			continue
		case info.Unpromoted > 0 && !opt.Force:
			entry.Reason = findingsCount(info.Unpromoted) + " not promoted"
			res.Kept = append(res.Kept, entry)
			continue
		}
		if !opt.DryRun {
			if _, err := Remove(ctx, e, info.Name, true); err != nil {
				entry.Reason = err.Error()
				res.Kept = append(res.Kept, entry)
				continue
			}
		}
		res.Removed = append(res.Removed, entry)
	}
	folder, err := base(e.Root)
	if err != nil {
		return nil, err
	}
	entries, _ := os.ReadDir(folder)
	for _, d := range entries {
		n := d.Name()
		if !d.IsDir() || !(strings.HasPrefix(n, ".new-") || strings.HasPrefix(n, ".rm-")) {
			continue
		}
		fi, err := d.Info()
		if err != nil || time.Since(fi.ModTime()) < debrisAge {
			continue
		}
		if !opt.DryRun {
			if err := safepath.RemoveAll(filepath.Join(folder, n), e.Root); err != nil {
				continue // leave it, and say nothing removed
			}
		}
		res.Debris = append(res.Debris, n)
	}
	return res, nil
}

// Promotion records that promote appended a finding to a document.
type Promotion struct {
	Finding
	DestKey  string
	DestPath string
	At       time.Time
	Agent    string
}

// RecordPromoted notes findings as promoted, in one transaction: from then
// on they no longer count as unpromoted, and promote skips them. Recording
// one twice keeps the first record.
func RecordPromoted(ctx context.Context, root, name string, ps []Promotion) error {
	h, err := openHandle(ctx, root, name)
	if err != nil {
		return err
	}
	defer h.close()
	recs := make([]index.SlicePromoted, len(ps))
	for i, p := range ps {
		hash := p.Hash
		if hash == "" {
			hash = FindingHash(p.Target, p.Kind, p.Text)
		}
		recs[i] = index.SlicePromoted{Hash: hash, Target: p.Target, Kind: p.Kind, Text: collapse(p.Text),
			DestKey: p.DestKey, DestPath: p.DestPath, At: p.At, Agent: p.Agent}
	}
	return h.st.AddPromoted(ctx, recs)
}

// Findings reads the findings of a workset's notes.md and whether each was
// promoted: what promote works from.
func Findings(ctx context.Context, root, name string) ([]FindingState, error) {
	h, err := openHandle(ctx, root, name)
	if err != nil {
		return nil, err
	}
	defer h.close()
	return h.findings(ctx)
}
