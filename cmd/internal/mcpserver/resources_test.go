package mcpserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestResourcesReadNothingOutside: a workset's plan.md and notes.md that
// are links out of the repository (to the server's environment, to a
// private key) are refused with the reason, and never served; a document
// that became such a link since it was indexed too.
func TestResourcesReadNothingOutside(t *testing.T) {
	t.Setenv("CANON_TEST_SECRET", "hunter2-in-the-environment")
	dir := mcpDir(t)
	srv, cs := serve(t, dir)
	// An index that has not taken the link in yet (a server that cannot
	// listen, or an event still on its way): the read itself refuses it.
	// The listener's own catch-ups stop first: they read srv.listen.
	srv.stop()
	<-srv.answered
	_ = srv.listen.Close()
	srv.listen = nil
	ctx := context.Background()
	call(t, cs, "workset_new", map[string]any{"name": "w", "seeds": []string{"KB-TSK-0002"}, "agent": "test"}, nil)
	key := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(key, []byte("-----BEGIN OPENSSH PRIVATE KEY----- s3cr3t"), 0o600); err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(dir, ".cache", "worksets", "w")
	for f, target := range map[string]string{"plan.md": "/proc/self/environ", "notes.md": key} {
		os.Remove(filepath.Join(ws, f))
		if err := os.Symlink(target, filepath.Join(ws, f)); err != nil {
			t.Fatal(err)
		}
	}
	doc := filepath.Join(dir, "items", "KB-TSK-0001.md")
	os.Remove(doc)
	if err := os.Symlink(key, doc); err != nil {
		t.Fatal(err)
	}
	for _, uri := range []string{"canon://workset/w/plan", "canon://workset/w/notes", "canon://doc/KB-TSK-0001"} {
		rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err == nil {
			t.Errorf("%s was served (%d bytes)", uri, len(rr.Contents[0].Text))
			continue
		}
		if strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("%s: the secret in the error: %v", uri, err)
		}
		if !strings.Contains(err.Error(), "is a symbolic link to") || !strings.Contains(err.Error(), "canon reads nothing outside it") {
			t.Errorf("%s: %v, want the link named", uri, err)
		}
	}
	// A missing one is still not found.
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "canon://workset/nope/plan"}); err == nil || !strings.Contains(strings.ToLower(err.Error()), "not found") {
		t.Errorf("no such workset: %v", err)
	}
}
