package gitsync

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestOversizedSidecarOnRef: a branch whose kep.yaml is over the bound a
// sidecar is read within does not lose the KEP's fields in silence: its
// document there is not read, and says why.
func TestOversizedSidecarOnRef(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir, s := kepRepo(t, 1)
	git(t, dir, "switch", "-q", "-c", "big")
	write(t, dir, "keps/sig-x/1-k/kep.yaml", "title: K 1\nkep-number: 1\nstatus: implemented\n"+strings.Repeat("# padding\n", 7000))
	git(t, dir, "commit", "-qam", "big")
	git(t, dir, "switch", "-q", "main")
	checkOverlays(t, s, "big")
	over, err := s.Store.Overlay(ctx, "", "")
	if err != nil || len(over) != 1 {
		t.Fatalf("overlay %+v, %v", over, err)
	}
	if sk := over[0].Skip; sk != "has a kep.yaml beside it of 68 KiB, more than the 64 KiB canon reads of one, so its fields are not read" {
		t.Fatalf("skip %q", sk)
	}
}

// TestBesideRefReadsAFolderOnce: the versions of many READMEs on a ref
// read each folder's tree once per commit, not a walk from the root per
// README and sidecar.
func TestBesideRefReadsAFolderOnce(t *testing.T) {
	t.Parallel()
	const n = 12
	dir, s := kepRepo(t, n)
	from := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))
	for i := 1; i <= n; i++ {
		write(t, dir, fmt.Sprintf("keps/sig-x/%d-k/kep.yaml", i), fmt.Sprintf("title: K %d\nkep-number: %d\nstatus: implemented\n", i, i))
	}
	git(t, dir, "commit", "-qam", "all implemented")
	to := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))
	objs := OpenObjects(s.Repo)
	defer objs.Close()
	changes, err := s.overlayDiffOf(objs, from, to)
	if err != nil {
		t.Fatal(err)
	}
	objs.trees = 0
	out, err := s.besideRef(objs, from, to, changes)
	if err != nil || len(out) != n {
		t.Fatalf("%d changes, %v", len(out), err)
	}
	// Per commit: the root, keps, keps/sig-x, and each KEP's folder.
	if want := 2 * (3 + n); objs.trees > want {
		t.Fatalf("%d trees read, want at most %d", objs.trees, want)
	}
}

// TestIndexBlobsReadsTheIndexFile: the staged check finds the blobs of
// the sidecars the commit does not change in git's index file, read in
// place, without running git (here, no git can run).
func TestIndexBlobsReadsTheIndexFile(t *testing.T) {
	ctx := context.Background()
	dir, s := kepRepo(t, 2)
	want := strings.TrimSpace(git(t, dir, "rev-parse", ":keps/sig-x/2-k/kep.yaml"))
	t.Setenv("PATH", "")
	got, err := s.Repo.indexBlobs(ctx, []string{"keps/sig-x/2-k/kep.yaml", "keps/sig-x/9-k/kep.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got["keps/sig-x/2-k/kep.yaml"] != want {
		t.Fatalf("got %v, want %s", got, want)
	}
}
