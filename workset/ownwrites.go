package workset

import (
	"context"
	"slices"
	"strings"

	"github.com/canon-md/canon/index"
	"github.com/canon-md/canon/index/scan"
)

// A workset's own promote changes its members: the documents its findings
// went to. That is the workset's work, not news it has to hear, so it must
// not call itself stale for it: neither when promote syncs the files it
// wrote, nor when they are committed. Promote records the blob id of each
// file it is about to write; a member whose document the index holds with
// one of those ids is as the workset left it. A later edit gives another
// id, and makes it stale as any change does.

// recordOwnWrites adds the blob ids of what promote is about to write to
// the workset's record of its own writes. It runs before the write, since
// syncing the written files is what tells the worksets.
func recordOwnWrites(ctx context.Context, root, name string, contents [][]byte) error {
	h, err := openHandle(ctx, root, name)
	if err != nil {
		return err
	}
	defer h.close()
	own, err := h.ownWrites(ctx)
	if err != nil {
		return err
	}
	lines := slices.Sorted(func(yield func(string) bool) {
		for oid := range own {
			if !yield(oid) {
				return
			}
		}
	})
	for _, c := range contents {
		if oid := scan.BlobOID(c); !own[oid] {
			own[oid] = true
			lines = append(lines, oid)
		}
	}
	return h.st.SetManifest(ctx, map[string]string{mOwnWrites: strings.Join(lines, "\n")})
}

// ownWrites reads the blob ids the workset's promotes wrote.
func (h *handle) ownWrites(ctx context.Context) (map[string]bool, error) {
	m, err := h.manifest(ctx)
	if err != nil {
		return nil, err
	}
	own := map[string]bool{}
	for _, oid := range strings.Fields(m[mOwnWrites]) {
		own[oid] = true
	}
	return own, nil
}

// notOwn drops the reasons whose member the index now holds as the
// workset's own promote wrote it.
func notOwn(ctx context.Context, h *handle, idx *index.Store, reasons []StaleReason) ([]StaleReason, error) {
	if len(reasons) == 0 {
		return reasons, nil
	}
	own, err := h.ownWrites(ctx)
	if err != nil || len(own) == 0 {
		return reasons, err
	}
	keys := make([]string, len(reasons))
	for i, r := range reasons {
		keys[i] = r.Key
	}
	files, err := idx.FilesOfKeys(ctx, keys)
	if err != nil {
		return nil, err
	}
	out := reasons[:0]
	for i, r := range reasons {
		if f := files[i]; f.Path != "" && own[f.OID] {
			continue
		}
		out = append(out, r)
	}
	return out, nil
}
