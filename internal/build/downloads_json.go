package build

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// The JSON downloads are written without reflection: json.MarshalIndent spent
// most of the downloads' time in reflection and in its second, indenting
// pass. appendRecordsJSON writes the same bytes in one pass; the tests compare
// the two on the repository's results, on tricky strings and by fuzzing.

// recordField is one column of the downloads and how its value is read:
// name is the CSV column and the JSON key, key its JSON prefix. Exactly one
// getter is set. appendRecordsJSON and appendRecordsCSV both write from it.
type recordField struct {
	name    string
	key     string // `,\n    "name": `; the first key of a record skips the comma
	str     func(*Record) string
	num     func(*Record) Number
	integer func(*Record) int
	flag    func(*Record) bool
}

func fieldKey(name string) string { return ",\n    \"" + name + "\": " }

func stringField(name string, get func(*Record) string) recordField {
	return recordField{name: name, key: fieldKey(name), str: get}
}

func numberField(name string, get func(*Record) Number) recordField {
	return recordField{name: name, key: fieldKey(name), num: get}
}

func intField(name string, get func(*Record) int) recordField {
	return recordField{name: name, key: fieldKey(name), integer: get}
}

func boolField(name string, get func(*Record) bool) recordField {
	return recordField{name: name, key: fieldKey(name), flag: get}
}

// recordFields is Record in field order with its column names (its json and
// csv tags, which are the same); TestRecordFieldsMatchStruct and
// TestRecordFieldsMatchCSVTags fail when they differ.
var recordFields = [...]recordField{
	stringField("study", func(r *Record) string { return r.Study }),
	stringField("model", func(r *Record) string { return r.Model }),
	stringField("gpu", func(r *Record) string { return r.GPU }),
	intField("gpus_per_node", func(r *Record) int { return r.GPUsPerNode }),
	intField("nodes", func(r *Record) int { return r.Nodes }),
	stringField("objective", func(r *Record) string { return r.Objective }),
	stringField("run", func(r *Record) string { return r.Run }),
	stringField("run_name", func(r *Record) string { return r.RunName }),
	stringField("engine", func(r *Record) string { return r.Engine }),
	stringField("engine_version", func(r *Record) string { return r.EngineVersion }),
	stringField("command", func(r *Record) string { return r.Command }),
	intField("gpus", func(r *Record) int { return r.GPUs }),
	boolField("failed", func(r *Record) bool { return r.Failed }),
	stringField("error", func(r *Record) string { return r.Error }),
	stringField("workload", func(r *Record) string { return r.Workload }),
	stringField("log_file", func(r *Record) string { return r.LogFile }),
	numberField("log_line", func(r *Record) Number { return r.LogLine }),
	numberField("completed", func(r *Record) Number { return r.Completed }),
	numberField("failed_requests", func(r *Record) Number { return r.FailedRequests }),
	numberField("duration", func(r *Record) Number { return r.Duration }),
	numberField("total_input_tokens", func(r *Record) Number { return r.TotalInputTokens }),
	numberField("total_output_tokens", func(r *Record) Number { return r.TotalOutputTokens }),
	numberField("request_throughput", func(r *Record) Number { return r.RequestThroughput }),
	numberField("output_throughput", func(r *Record) Number { return r.OutputThroughput }),
	numberField("total_token_throughput", func(r *Record) Number { return r.TotalTokenThroughput }),
	numberField("mean_ttft_ms", func(r *Record) Number { return r.MeanTTFT }),
	numberField("median_ttft_ms", func(r *Record) Number { return r.MedianTTFT }),
	numberField("p99_ttft_ms", func(r *Record) Number { return r.P99TTFT }),
	numberField("mean_tpot_ms", func(r *Record) Number { return r.MeanTPOT }),
	numberField("median_tpot_ms", func(r *Record) Number { return r.MedianTPOT }),
	numberField("p99_tpot_ms", func(r *Record) Number { return r.P99TPOT }),
	numberField("mean_itl_ms", func(r *Record) Number { return r.MeanITL }),
	numberField("median_itl_ms", func(r *Record) Number { return r.MedianITL }),
	numberField("p99_itl_ms", func(r *Record) Number { return r.P99ITL }),
	numberField("mean_e2el_ms", func(r *Record) Number { return r.MeanE2EL }),
	numberField("median_e2el_ms", func(r *Record) Number { return r.MedianE2EL }),
	numberField("p99_e2el_ms", func(r *Record) Number { return r.P99E2EL }),
	intField("replicas", func(r *Record) int { return r.Replicas }),
	stringField("served_model", func(r *Record) string { return r.ServedModel }),
	boolField("excluded", func(r *Record) bool { return r.Excluded }),
	stringField("excluded_by", func(r *Record) string { return r.ExcludedBy }),
}

// appendRecordsJSON appends rows as json.MarshalIndent(rows, "", "  ") writes
// them, byte for byte: "[]" when there is no row, no trailing newline. A
// Number that is not a JSON number is an error, as it is for encoding/json.
func appendRecordsJSON(dst []byte, rows []Record) ([]byte, error) {
	if len(rows) == 0 {
		return append(dst, "[]"...), nil
	}
	dst = growJSON(dst, rows)
	for i := range rows {
		r := &rows[i]
		if i == 0 {
			dst = append(dst, "[\n  {"...)
		} else {
			dst = append(dst, ",\n  {"...)
		}
		for j := range recordFields {
			f := &recordFields[j]
			if j == 0 {
				dst = append(dst, f.key[1:]...)
			} else {
				dst = append(dst, f.key...)
			}
			switch {
			case f.str != nil:
				dst = appendJSONString(dst, f.str(r))
			case f.num != nil:
				n := f.num(r)
				if n == "" {
					dst = append(dst, "null"...)
					break
				}
				if !isJSONNumber(string(n)) {
					return nil, numberError(i, r, f.name, n)
				}
				dst = append(dst, n...)
			case f.integer != nil:
				dst = strconv.AppendInt(dst, int64(f.integer(r)), 10)
			default:
				dst = strconv.AppendBool(dst, f.flag(r))
			}
		}
		dst = append(dst, "\n  }"...)
	}
	return append(dst, "\n]"...), nil
}

// growJSON makes room for rows written without escapes, so that the output
// is usually built in one allocation.
func growJSON(dst []byte, rows []Record) []byte {
	fixed := len("[\n]") + len(",\n  {\n  }")
	for j := range recordFields {
		f := &recordFields[j]
		switch {
		case f.str != nil:
			fixed += len(f.key) + 2
		case f.num != nil:
			fixed += len(f.key) + len("null")
		default:
			fixed += len(f.key) + 20 // the widest int64, "false" fits
		}
	}
	n := len(rows)*fixed + textLen(rows)
	if cap(dst)-len(dst) < n {
		dst = append(make([]byte, 0, len(dst)+n+1), dst...) // +1: the newline of the file
	}
	return dst
}

// textLen is the length of the rows' strings and numbers, unescaped: what
// the downloads' sizes depend on beyond the fixed part of each row.
func textLen(rows []Record) int {
	n := 0
	for i := range rows {
		r := &rows[i]
		for j := range recordFields {
			f := &recordFields[j]
			if f.str != nil {
				n += len(f.str(r))
			} else if f.num != nil {
				n += len(f.num(r))
			}
		}
	}
	return n
}

// numberError names the record and, when it has one, the log it came from.
func numberError(i int, r *Record, key string, n Number) error {
	where := "record " + strconv.Itoa(i+1)
	if r.LogFile != "" && r.LogLine != "" {
		where += " (" + r.LogFile + ":" + string(r.LogLine) + ")"
	}
	return fmt.Errorf("%s, %s: %q is not a number", where, key, string(n))
}

// skipDigits returns the index of the first byte at or after i that is not
// a decimal digit.
func skipDigits(s string, i int) int {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

// isJSONNumber reports whether s is what Number.MarshalJSON accepts and
// encoding/json then keeps: a number in JSON's grammar that ParseFloat reads
// without overflow.
func isJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && '1' <= s[i] && s[i] <= '9':
		i = skipDigits(s, i)
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		start := i + 1
		if i = skipDigits(s, start); i == start {
			return false
		}
	}
	exp := false
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		exp = true
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		if i = skipDigits(s, i); i == start {
			return false
		}
	}
	if i != len(s) {
		return false
	}
	// Only an exponent or more than 308 integer digits overflow a float64
	// (underflow is no error); spare the common case the parse.
	if exp || len(s) > 300 {
		_, err := strconv.ParseFloat(s, 64)
		return err == nil
	}
	return true
}

// jsonSafe is the ASCII that encoding/json writes as is, with HTML escaping
// on: not a control character, '"', '\\', '<', '>' or '&'. DEL is safe.
var jsonSafe = func() (t [utf8.RuneSelf]bool) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		t[b] = b != '"' && b != '\\' && b != '<' && b != '>' && b != '&'
	}
	return t
}()

const hexDigits = "0123456789abcdef"

// appendJSONString is encoding/json's appendString with escapeHTML set
// (Go's src/encoding/json/encode.go): \b \f \n \r \t \" \\ short, other
// controls and < > & as \u00XX, U+2028 and U+2029 escaped, each invalid
// UTF-8 byte as \ufffd.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if jsonSafe[b] {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
