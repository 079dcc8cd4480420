package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK's stdio transport ends the session at the first line that is not
// a JSON-RPC message it reads (a batch included) (a stray "hello" from a shell, a half-written line):
// the server exits and every answer still owed is lost. canon's stdio
// answers such a line itself, as JSON-RPC says (-32700 for a line that is
// not JSON, -32600 for JSON that is no message), and goes on; the SDK sees
// only messages.

// maxLine bounds one inbound line, as the SDK's DefaultMaxLineLength does.
const maxLine = 16 << 20

// stdioTransport serves over r and w with lines that are not JSON-RPC
// messages answered, not fatal.
func stdioTransport(r io.Reader, w io.Writer) mcp.Transport {
	out := &lineWriter{w: w}
	return &mcp.IOTransport{Reader: &messageReader{in: bufio.NewReaderSize(r, 64<<10), out: out}, Writer: out}
}

// lineWriter writes whole lines, one writer at a time: the SDK's messages
// and messageReader's answers never interleave.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lineWriter) Close() error { return nil }

// messageReader passes on the lines of in that are JSON-RPC messages (or
// batches) and answers the others on out.
type messageReader struct {
	in      *bufio.Reader
	out     io.Writer
	pending []byte // the rest of the line being passed on
}

func (m *messageReader) Read(p []byte) (int, error) {
	for len(m.pending) == 0 {
		line, err := m.readLine()
		if len(line) > 0 {
			if answer := notAMessage(line); answer != nil {
				_, _ = m.out.Write(answer) // a client that went away is the session's end, read next
			} else {
				m.pending = append(line, '\n')
			}
		}
		if err != nil && len(m.pending) == 0 {
			return 0, err
		}
	}
	n := copy(p, m.pending)
	m.pending = m.pending[n:]
	return n, nil
}

func (m *messageReader) Close() error { return nil }

// readLine reads one line without its end, trimmed; a line longer than
// maxLine is read to its end and answered as not JSON.
func (m *messageReader) readLine() ([]byte, error) {
	var line []byte
	tooLong := false
	for {
		chunk, err := m.in.ReadSlice('\n')
		if !tooLong && len(line)+len(chunk) > maxLine {
			tooLong, line = true, nil
		}
		if !tooLong {
			line = append(line, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if tooLong {
			return []byte("\x00"), err // not JSON: answered as such
		}
		return bytes.TrimSpace(line), err
	}
}

// notAMessage is the JSON-RPC error answer to a line that is not a message
// the SDK can read (nil for one that is).
func notAMessage(line []byte) []byte {
	if !json.Valid(line) {
		return errorAnswer(nil, -32700, "Parse error: the line is not JSON")
	}
	if line[0] == '[' {
		// The SDK ends a session at a batch once the protocol is
		// 2025-06-18 or later, which dropped batches; no client needs them.
		return errorAnswer(nil, -32600, "Invalid Request: batches are not supported; send one message a line")
	}
	var msg struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  *string         `json:"method"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if line[0] != '{' || json.Unmarshal(line, &msg) != nil {
		return errorAnswer(nil, -32600, "Invalid Request: a message is a JSON object")
	}
	if !idLike(msg.ID) {
		return errorAnswer(nil, -32600, "Invalid Request: an id is a string or an integer")
	}
	if msg.JSONRPC != "2.0" || (msg.Method == nil && msg.Result == nil && msg.Error == nil) {
		return errorAnswer(msg.ID, -32600, `Invalid Request: a message has "jsonrpc": "2.0" and a method (or a result or an error)`)
	}
	return nil
}

// idLike reports an id the SDK reads: none, null, a string or an integer.
func idLike(id json.RawMessage) bool {
	if len(id) == 0 || string(id) == "null" || id[0] == '"' {
		return true
	}
	var n int64
	return json.Unmarshal(id, &n) == nil
}

func errorAnswer(id json.RawMessage, code int, message string) []byte {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "error": map[string]any{"code": code, "message": message}})
	return append(b, '\n')
}
