package mcpserver

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/canon-md/canon/index/indextest/citool"
)

// TestMCPInspector runs the MCP Inspector's CLI (the npm package
// @modelcontextprotocol/inspector; .ci/run installs it into
// scripts/out/inspector) against bin/canon mcp on a real repository:
// tools/list, and a tools/call whose structured result it validates
// against the tool's output schema.
func TestMCPInspector(t *testing.T) {
	inspector, _ := filepath.Abs("../../../scripts/out/inspector/node_modules/.bin/mcp-inspector")
	if _, err := os.Stat(inspector); err != nil {
		citool.Need(t, "the MCP Inspector is not installed (%v); .ci/run installs it", err)
	}
	canon, _ := filepath.Abs("../../../bin/canon")
	if _, err := os.Stat(canon); err != nil {
		citool.Need(t, "bin/canon is not built (%v); make test builds it", err)
	}
	dir := t.TempDir()
	if out, err := exec.Command("cp", "-r", "../../../testdata/example/.", dir).CombinedOutput(); err != nil {
		t.Fatalf("copy the example: %v\n%s", err, out)
	}
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "commit", "-qm", "example")
	inspect := func(args ...string) []byte {
		t.Helper()
		cmd := exec.Command(inspector, append([]string{"--cli", canon, "mcp", "--repo", dir}, args...)...)
		cmd.Env = append(os.Environ(), "NO_COLOR=1")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("mcp-inspector %v: %v\n%s", args, err, out)
		}
		return out
	}
	var list struct {
		Tools []struct{ Name string }
	}
	if err := json.Unmarshal(inspect("--method", "tools/list"), &list); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	sort.Strings(names)
	want := "blocked check claims context id_next item_claim item_log item_new item_set neighbors note promote query_run ready search show status workset_context workset_list workset_new workset_resume workset_show"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("tools: %s\nwant  %s", got, want)
	}
	var res struct {
		IsError           bool `json:"isError"`
		StructuredContent struct {
			Hits []struct {
				ID string `json:"id"`
			} `json:"hits"`
			Freshness Freshness `json:"freshness"`
		} `json:"structuredContent"`
	}
	if err := json.Unmarshal(inspect("--method", "tools/call", "--tool-name", "search", "--tool-arg", "query=Safari"), &res); err != nil {
		t.Fatal(err)
	}
	sc := res.StructuredContent
	if res.IsError || len(sc.Hits) == 0 || sc.Hits[0].ID != "KB-BUG-0002" || sc.Freshness.IndexedCommit == "" {
		t.Errorf("search over the Inspector: %+v", res)
	}
}
