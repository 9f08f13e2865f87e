package benchlog

import "bytes"

// vLLM's 2023 benchmark_serving.py printed its result as five print()
// lines ("Total time: 219.64 s", "Throughput: 4.55 requests/s", "Average
// latency: ...", "Average latency per token: ...", "Average latency per
// output token: ..."). A CI log that lost the line ends runs them together
// on one line; splitRunTogether cuts such a line back into the lines the
// script printed, each read on the line it was found on.

var (
	runTogetherHead = []byte("Total time: ")
	// The labels that follow, longest first where one starts another.
	runTogetherLabels = [][]byte{
		[]byte("Throughput: "),
		[]byte("Average latency per output token: "),
		[]byte("Average latency per token: "),
		[]byte("Average latency: "),
	}
)

// splitRunTogether returns the lines glued in line, or nil if it is not
// such a line.
func splitRunTogether(line []byte) [][]byte {
	if len(line) < 40 || line[0] != 'T' || !bytes.HasPrefix(line, runTogetherHead) ||
		!bytes.Contains(line, runTogetherLabels[0]) {
		return nil
	}
	var parts [][]byte
	start, i := 0, len(runTogetherHead)
	for i < len(line) {
		l := labelAt(line, i)
		if l == 0 {
			i++
			continue
		}
		parts = append(parts, bytes.TrimSpace(line[start:i]))
		start, i = i, i+l
	}
	parts = append(parts, bytes.TrimSpace(line[start:]))
	if len(parts) < 2 {
		return nil
	}
	return parts
}

// labelAt is the length of the 2023 label that starts at line[i], or 0.
func labelAt(line []byte, i int) int {
	if c := line[i]; c != 'T' && c != 'A' {
		return 0
	}
	for _, l := range runTogetherLabels {
		if bytes.HasPrefix(line[i:], l) {
			return len(l)
		}
	}
	return 0
}
