package gitsync

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// A blob over the size a reader asks for is not read, through the kept
// cat-file and without it, and the kept one still answers the next
// question: a commit cannot make canon hold a blob of any size it likes.
func TestBlobOverTheLimitIsNotRead(t *testing.T) {
	dir, s := committed(t, map[string]string{"big.md": strings.Repeat("x", 4096), "small.md": "# small\n"})
	ctx := context.Background()
	big := git(t, dir, "rev-parse", "HEAD:big.md")
	small := git(t, dir, "rev-parse", "HEAD:small.md")
	cat, err := s.Repo.StartCatFile(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	for _, c := range []*CatFile{cat, nil} {
		var tooLarge *BlobTooLargeError
		if _, err := s.Repo.readBlob(ctx, c, big, 1024); !errors.As(err, &tooLarge) || tooLarge.Size != 4096 {
			t.Fatalf("cat %v: a 4096-byte blob read with a limit of 1024 gave %v, want a BlobTooLargeError of 4096 bytes", c != nil, err)
		}
		data, err := s.Repo.readBlob(ctx, c, small, 1024)
		if err != nil || string(data) != "# small\n" {
			t.Fatalf("cat %v: the next blob read gave %q, %v", c != nil, data, err)
		}
	}
	// The document the check loads is skipped as a working-tree file over
	// max_file_size is.
	s.Cfg.MaxFileSize = 1024
	l, err := s.loadBlob(ctx, cat, "big.md", big, s.Loader.FromContent)
	if err != nil || l.Doc != nil || !strings.Contains(l.Skip, "size cap") || l.OID != big {
		t.Fatalf("loadBlob of a blob over max_file_size: %+v, %v; want it skipped by the size cap, with its id", l, err)
	}
}
