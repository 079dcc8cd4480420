package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK's stdio transport ends the session at the first line that is not
// a JSON-RPC message it reads (a batch included) (a stray "hello" from a shell, a half-written line):
// the server exits and every answer still owed is lost. canon's stdio
// answers such a line itself, as JSON-RPC says (-32700 for a line that is
// not JSON, -32600 for JSON that is no message), and goes on; the SDK sees
// only messages.

// The end of the input is not the end of the answers: a client that
// writes its requests and closes stdin (printf … | canon mcp) is answered
// every request passed on before the session ends. The SDK closes the
// connection at EOF and drops what is in flight (2 of 3 runs answered
// nothing), so the reader holds EOF back until the writer has answered
// every request it passed on, or a request was cancelled, or drainWait
// passed.

// maxLine bounds one inbound line, as the SDK's DefaultMaxLineLength does.
const maxLine = 16 << 20

// drainWait bounds how long the end of the input waits for the answers
// still owed.
const drainWait = 30 * time.Second

// stdioTransport serves over r and w with lines that are not JSON-RPC
// messages answered, not fatal.
func stdioTransport(r io.Reader, w io.Writer) mcp.Transport {
	owed := newOwed()
	out := &lineWriter{w: w, owed: owed}
	return &mcp.IOTransport{Reader: &messageReader{in: bufio.NewReaderSize(r, 64<<10), out: out, owed: owed, drain: drainWait}, Writer: out}
}

// owed are the ids of the requests passed on and not yet answered.
type owed struct {
	mu   sync.Mutex
	ids  map[string]bool
	done chan struct{} // closed and renewed when the last one is answered
}

func newOwed() *owed { return &owed{ids: map[string]bool{}, done: make(chan struct{})} }

func (o *owed) add(id string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.ids[id] = true
}

func (o *owed) settle(id string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.ids[id] {
		return
	}
	delete(o.ids, id)
	if len(o.ids) == 0 {
		close(o.done)
		o.done = make(chan struct{})
	}
}

// wait returns when nothing is owed, or after d.
func (o *owed) wait(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		o.mu.Lock()
		n, done := len(o.ids), o.done
		o.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-done:
		case <-t.C:
			return
		}
	}
}

// envelope is what owed reads of a message: its id, whether it is a
// request or an answer, and a cancellation's request id.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		RequestID json.RawMessage `json:"requestId"`
	} `json:"params"`
}

// idKey is an id as owed keeps it: decoded, as the SDK writes it back
// ("\u0041" is "A", -0 is 0), a string apart from a number ("1" is not
// 1); "" for none.
func idKey(id json.RawMessage) string {
	d := json.NewDecoder(bytes.NewReader(id))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return ""
	}
	switch v := v.(type) {
	case string:
		return "s:" + v
	case json.Number:
		if n, err := v.Int64(); err == nil {
			return "n:" + strconv.FormatInt(n, 10)
		}
		return "n:" + v.String()
	}
	return ""
}

// lineWriter writes whole lines, one writer at a time: the SDK's messages
// and messageReader's answers never interleave. Answers it writes settle
// what is owed.
type lineWriter struct {
	mu   sync.Mutex
	w    io.Writer
	owed *owed
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	n, err := l.w.Write(p)
	l.mu.Unlock()
	if l.owed != nil {
		for _, line := range bytes.Split(p, []byte("\n")) {
			var e envelope
			if len(bytes.TrimSpace(line)) > 0 && json.Unmarshal(line, &e) == nil && e.Method == "" {
				l.owed.settle(idKey(e.ID)) // an answer
			}
		}
	}
	return n, err
}

func (l *lineWriter) Close() error { return nil }

// messageReader passes on the lines of in that are JSON-RPC messages (or
// batches) and answers the others on out.
type messageReader struct {
	in      *bufio.Reader
	out     io.Writer
	owed    *owed         // nil: EOF is passed on at once
	drain   time.Duration // how long EOF waits for what is owed: drainWait (a test's is longer than it runs)
	pending []byte        // the rest of the line being passed on
}

func (m *messageReader) Read(p []byte) (int, error) {
	for len(m.pending) == 0 {
		line, err := m.readLine()
		if len(line) > 0 {
			if answer := notAMessage(line); answer != nil {
				_, _ = m.out.Write(answer) // a client that went away is the session's end, read next
			} else {
				m.pending = append(line, '\n')
				m.track(line)
			}
		}
		if err != nil && len(m.pending) == 0 {
			if m.owed != nil && errors.Is(err, io.EOF) {
				m.owed.wait(m.drain)
			}
			return 0, err
		}
	}
	n := copy(p, m.pending)
	m.pending = m.pending[n:]
	return n, nil
}

func (m *messageReader) Close() error { return nil }

// track notes a request passed on as owed, and a cancelled one as settled
// (MCP answers no cancelled request).
func (m *messageReader) track(line []byte) {
	if m.owed == nil {
		return
	}
	var e envelope
	if json.Unmarshal(line, &e) != nil || e.Method == "" {
		return
	}
	if id := idKey(e.ID); id != "" {
		m.owed.add(id)
	} else if e.Method == "notifications/cancelled" {
		m.owed.settle(idKey(e.Params.RequestID))
	}
}

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
