package check

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// This file reads, in English, Chinese and Japanese prose, the statements
// that StudyFacts can bind: figures with their unit and magnitude, factors,
// superlatives, ordered lists and named settings. Reading is separate from
// checking (prosefacts.go): a reader finds what a sentence states, and
// says nothing about whether it is true.

// foldDigits writes full-width digits, and a full-width point between
// digits, as ASCII: "１８．７％" is read as "18.7％".
func foldDigits(s string) string {
	if !strings.ContainsAny(s, "０１２３４５６７８９") {
		return s
	}
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case r >= '０' && r <= '９':
			b.WriteByte(byte('0' + r - '０'))
		case r == '．' && i > 0 && i+1 < len(rs) && isWideOrASCIIDigit(rs[i-1]) && isWideOrASCIIDigit(rs[i+1]):
			b.WriteByte('.')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) }

func isWideOrASCIIDigit(r rune) bool { return r >= '0' && r <= '9' || r >= '０' && r <= '９' }

// splitSentences splits a line of prose into sentences, each with its byte
// offset: a dot ends one only before a space or the end of the line, so
// "1.27x" and "v0.11.0" stay whole.
func splitSentences(line string) []string {
	var out []string
	start := 0
	for i := 0; i < len(line); i++ {
		end := 0
		switch {
		case line[i] == '.' && (i+1 == len(line) || line[i+1] == ' '):
			end = i + 1
		case line[i] == '!' || line[i] == '?':
			end = i + 1
		case strings.HasPrefix(line[i:], "。") || strings.HasPrefix(line[i:], "！") || strings.HasPrefix(line[i:], "？"):
			end = i + 3
		}
		if end > 0 {
			if s := strings.TrimSpace(line[start:end]); s != "" {
				out = append(out, s)
			}
			start = end
		}
	}
	if s := strings.TrimSpace(line[start:]); s != "" {
		out = append(out, s)
	}
	return out
}

// clauseStop splits a sentence at commas and semicolons, in every script.
var clauseStop = regexp.MustCompile(`[,;，；、：:]\s*|\s+(?:and|but|while|whereas)\s+`)

// splitClauses splits a sentence into clauses, as clauseStop does but by
// hand (it runs on every sentence); a comma between digits groups
// thousands ("2,054.21") and splits nothing.
func splitClauses(s string) []string {
	var out []string
	start := 0
	// cut ends a clause at end and starts the next after the spaces from
	// next on; the scan goes on from there, as the pattern does.
	cut := func(end, next int) int {
		out = append(out, s[start:end])
		for next < len(s) && isSpace(s[next]) {
			next++
		}
		start = next
		return next - 1
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ',' && i > 0 && i+1 < len(s) && isDigit(s[i-1]) && isDigit(s[i+1]):
		case c == ',' || c == ';' || c == ':':
			i = cut(i, i+1)
		case c >= 0x80:
			for _, p := range [...]string{"，", "；", "、", "："} {
				if strings.HasPrefix(s[i:], p) {
					i = cut(i, i+len(p))
					break
				}
			}
		case isSpace(c):
			if w := conjunctionAt(s, i); w > 0 {
				i = cut(i, i+w)
			}
		}
	}
	return append(out, s[start:])
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// conjunctionAt is the length of a joining word with the spaces around
// it at i (" and "), or 0.
func conjunctionAt(s string, i int) int {
	j := i
	for j < len(s) && isSpace(s[j]) {
		j++
	}
	for _, w := range [...]string{"and", "but", "while", "whereas"} {
		if k := j + len(w); strings.HasPrefix(s[j:], w) && k < len(s) && isSpace(s[k]) {
			return k + 1 - i
		}
	}
	return 0
}

// quantity is a figure prose states with a unit: its value in the unit's
// base (ms for time, tok/s, req/s), the precision it is printed at, and
// whether the sentence says it is approximate.
type quantity struct {
	Raw       string
	Value     float64
	Precision float64 // half of it either way is the printed rounding
	Unit      string  // "ms", "s", "tok/s", "req/s"
	Magnitude string  // "万", "k"..., or ""
	Approx    bool
}

// quantityWord is a figure, with thousands grouped by commas or not, a
// magnitude (万, 千, 亿/億, k) and a unit of time or throughput.
var quantityWord = regexp.MustCompile(`(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s?(万|千|亿|億|k|K)?\s?(tok/s|tokens/s|token/s|req/s|requests/s|ms|毫秒|ミリ秒|s|秒)(?:[^A-Za-z0-9/]|$)`)

// approxWord says the figure near it is rounded on purpose.
var approxWord = regexp.MustCompile(`(?i)(~|≈|\babout|\baround|\broughly|\bapproximately|\bnearly|\balmost|\bsome|约|大约|近|約|およそ|ほぼ|程度|前後|左右)`)

var magnitudes = map[string]float64{"": 1, "万": 1e4, "千": 1e3, "亿": 1e8, "億": 1e8, "k": 1e3, "K": 1e3}

// mayStateQuantity: quantityWord needs a digit followed, after spaces and
// a magnitude, by the first letter of a unit.
func mayStateQuantity(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if !isDigit(s[i]) {
			continue
		}
		j := i + 1
		for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\f' || s[j] == '\r' || s[j] == 'k' || s[j] == 'K') {
			j++
		}
		if j < len(s) && (s[j] == 't' || s[j] == 'r' || s[j] == 'm' || s[j] == 's' || s[j] >= 0x80) {
			return true
		}
	}
	return false
}

// quantities reads the figures with a unit in a sentence.
func quantities(s string) []quantity {
	if !mayStateQuantity(s) {
		return nil
	}
	var out []quantity
	for _, m := range quantityWord.FindAllStringSubmatchIndex(s, -1) {
		if glued(s, m[0]-1) {
			continue
		}
		raw := strings.ReplaceAll(s[m[2]:m[3]], ",", "")
		v, err := strconv.ParseFloat(raw, 64)
		if err != nil {
			continue
		}
		dec := 0
		if i := strings.IndexByte(raw, '.'); i >= 0 {
			dec = len(raw) - i - 1
		}
		mag := ""
		if m[4] >= 0 {
			mag = s[m[4]:m[5]]
		}
		q := quantity{Raw: strings.TrimSpace(s[m[0]:m[7]]), Value: v * magnitudes[mag], Precision: math.Pow(10, -float64(dec)) * magnitudes[mag], Magnitude: mag}
		switch u := s[m[6]:m[7]]; u {
		case "ms", "毫秒", "ミリ秒":
			q.Unit = "ms"
		case "s", "秒":
			q.Unit = "s"
		case "req/s", "requests/s":
			q.Unit = "req/s"
		default:
			q.Unit = "tok/s"
		}
		before := s[max(0, m[0]-16):m[0]]
		q.Approx = approxWord.MatchString(before) || approxWord.MatchString(s[m[7]:min(len(s), m[7]+9)])
		out = append(out, q)
	}
	return out
}

// factor is a ratio prose states: "1.27x", "2倍", "doubles", "halves".
type factor struct {
	Raw     string
	Value   float64
	Decimal int  // decimals printed; -1 for a word
	Exact   bool // a figure with decimals, held to its rounding
}

// numericFactor is a figure followed by x, ×, 倍 or "times": not "x 2"
// (replicas) nor "xformers".
var numericFactor = regexp.MustCompile(`(\d+(?:\.\d+)?)(?:x|\s?×|\s?倍|\s?-?fold|\s+times)`)

// wordFactors are factors in words, in the three languages.
var wordFactors = []struct {
	re    *regexp.Regexp
	value float64
}{
	{regexp.MustCompile(`(?i)\b(doubles|doubled|doubling|double|twice|two-fold|twofold|two times)\b|翻倍|翻了一番|翻一番|加倍|两倍|兩倍|二倍|(?:提高|增加|提升)了?一倍|倍増|倍になり|倍になる|倍に`), 2},
	{regexp.MustCompile(`(?i)\b(triples|tripled|triple|thrice|three-fold|threefold|three times)\b|三倍|翻了两番`), 3},
	{regexp.MustCompile(`(?i)\b(halves|halved|halving|half)\b|减半|一半|半减|半分|半減`), 0.5},
}

// factors reads the factors a clause states.
func factors(c string) []factor {
	var out []factor
	for _, m := range numericFactor.FindAllStringSubmatchIndex(c, -1) {
		if glued(c, m[0]-1) || m[1] < len(c) && isAlnum(c[m[1]]) {
			continue
		}
		num := c[m[2]:m[3]]
		// "3019.19 × 2" multiplies a value: a factor is followed by no figure.
		if rest := strings.TrimLeft(c[m[1]-1:], " ×x"); rest != "" && isDigit(rest[0]) && strings.ContainsAny(c[m[3]:m[1]], "×x") {
			continue
		}
		v, err := strconv.ParseFloat(num, 64)
		if err != nil || v <= 0 {
			continue
		}
		dec := 0
		if i := strings.IndexByte(num, '.'); i >= 0 {
			dec = len(num) - i - 1
		}
		out = append(out, factor{Raw: strings.TrimSpace(c[m[0]:m[1]]), Value: v, Decimal: dec, Exact: dec > 0})
	}
	if len(out) > 0 {
		return out
	}
	for _, w := range wordFactors {
		if m := w.re.FindString(c); m != "" {
			out = append(out, factor{Raw: m, Value: w.value, Decimal: -1})
		}
	}
	return out
}

// superlative is a word that ranks a subject first: by value (highest),
// or by what is better for the metric (fastest, best).
type superlative struct {
	Raw string
	// Max: the subject holds the largest value; Better: the best value
	// for the metric (Max and Better are not both set).
	Max, Min, Better, Worse bool
}

var superlatives = []struct {
	re   *regexp.Regexp
	kind superlative
	may  []string // what every match holds, lower case (see gated)
}{
	{regexp.MustCompile(`(?i)\b(highest|largest|greatest|longest)\b|最高|最大|最长|最多|(?:最も|一番)[^。、，]{0,16}?(?:高|大き|長|多)`), superlative{Max: true},
		[]string{"highest", "largest", "greatest", "longest", "最", "一番"}},
	{regexp.MustCompile(`(?i)\b(lowest|smallest|shortest|fewest)\b|最低|最小|最短|最少|(?:最も|一番)[^。、，]{0,16}?(?:低|小さ|短|少な)`), superlative{Min: true},
		[]string{"lowest", "smallest", "shortest", "fewest", "最", "一番"}},
	{regexp.MustCompile(`(?i)\b(fastest|best|quickest|ranks first|comes first|comes out on top)\b|最快|最好|最佳|最优|排名第一|排第一|最速|最良|(?:最も|一番)[^。、，]{0,16}?(?:速|良)|トップ|1 ?位`), superlative{Better: true},
		[]string{"fastest", "best", "quickest", "first", "on top", "最", "排第一", "一番", "トップ", "位"}},
	{regexp.MustCompile(`(?i)\b(slowest|worst)\b|最慢|最差|(?:最も|一番)[^。、，]{0,16}?(?:遅|悪)`), superlative{Worse: true},
		[]string{"slowest", "worst", "最", "一番"}},
}

// superlativeIn finds the superlative of a clause, if it has one.
func superlativeIn(c string) (superlative, bool) {
	low := lowerForSpellings(c)
	for _, s := range superlatives {
		if !gated(low, s.may) {
			continue
		}
		if m := s.re.FindString(c); m != "" {
			k := s.kind
			k.Raw = m
			return k, true
		}
	}
	return superlative{}, false
}

// negation says a clause denies what it states.
var negation = gate(regexp.MustCompile(`(?i)\b(not|never|neither|nor|no longer|isn't|doesn't|cannot|can't)\b|不是|并非|并不|没有|不如|不及|未能|不再|ではな|じゃな|くない|ません|ず[、。]|ずに`),
	"not", "never", "neither", "nor", "no longer", "n't", "cannot", "不是", "并非", "并不", "没有", "不如", "不及", "未能", "不再", "ではな", "じゃな", "くない", "ません", "ず")

// metricWords name a metric in the three languages, the most specific
// first; a percentile or median before a latency names that statistic.
var metricWords = []struct {
	re  *regexp.Regexp
	key string
	may []string // what every match holds, lower case (see gated)
}{
	{regexp.MustCompile(`(?i)output (token )?throughput|token generation|generation throughput|decode throughput|输出 ?(token )?吞吐|出力(トークン)?スループット`), "output_throughput",
		[]string{"output", "generation", "decode", "输出", "出力"}},
	{regexp.MustCompile(`(?i)request throughput|requests? per second|请求吞吐|リクエスト(・)?スループット`), "request_throughput",
		[]string{"request", "请求吞吐", "リクエスト"}},
	{regexp.MustCompile(`(?i)\bTTFT\b|time to (the )?first token|首 ?token|首字|最初のトークンまで`), "ttft_ms",
		[]string{"ttft", "first token", "首", "最初のトークンまで"}},
	{regexp.MustCompile(`(?i)\bTPOT\b|time per output token|每个输出 ?token|输出 ?token ?(的)?(时间|耗时|延迟)|出力トークンあたり`), "tpot_ms",
		[]string{"tpot", "output token", "输出", "出力トークンあたり"}},
	{regexp.MustCompile(`(?i)\bITL\b|inter-?token latency|token ?间延迟|トークン間`), "itl_ms",
		[]string{"itl", "inter", "间延迟", "トークン間"}},
	{regexp.MustCompile(`(?i)\bE2EL\b|end-to-end latency|(request )?latency|端到端延迟|延迟|时延|エンドツーエンド|レイテンシ|遅延`), "e2el_ms",
		[]string{"e2el", "latency", "延迟", "时延", "エンドツーエンド", "レイテンシ", "遅延"}},
	{regexp.MustCompile(`(?i)(total )?(token )?throughput|tok/s|吞吐|スループット`), "total_token_throughput",
		[]string{"throughput", "tok/s", "吞吐", "スループット"}},
}

var statisticWord = regexp.MustCompile(`(?i)\b(p\d{2}(?:\.\d)?|median)\b|中位数?|中央値`)

// metricIn is the metric a clause names, as a metric key, or "".
func metricIn(c string) string {
	low := lowerForSpellings(c)
	for _, w := range metricWords {
		if !gated(low, w.may) || !w.re.MatchString(c) {
			continue
		}
		if !strings.HasSuffix(w.key, "_ms") {
			return w.key
		}
		stat := "mean"
		if m := statisticWord.FindString(c); m != "" {
			stat = strings.ToLower(m)
			if stat != "median" && !strings.HasPrefix(stat, "p") {
				stat = "median"
			}
		}
		return stat + "_" + w.key
	}
	return ""
}

// speedWord: a clause about speed with no metric named speaks of the
// headline.
var speedWord = regexp.MustCompile(`(?i)\b(fast|faster|slow|slower|fastest|slowest|speed|quick|quicker|outperforms?)\b|快|慢|速`)

// orderOperator splits an ordered list: "A > B > C".
var orderOperator = regexp.MustCompile(`\s*(>|<|＞|＜)\s*`)

// settingWord is a parallel size prose names: TP8, tp=4, EP 8, and the
// same in words ("tensor parallelism of 4", "4 路张量并行", "テンソル並列 4").
var settingWords = []struct {
	re   *regexp.Regexp
	kind string // TP, PP, DP, EP
	size int    // submatch of the size
	name int    // submatch of the kind, when it varies
}{
	{regexp.MustCompile(`(?i)(?:^|[^A-Za-z0-9-])-?-?(tp|ep|dp|pp)(?:[ =-]|-size[ =]|\s?size\s?)?(\d+)\b`), "", 2, 1},
	{regexp.MustCompile(`(?i)\b(tensor|pipeline|data|expert)[- ]parallel(?:ism)?(?: size| degree)?(?: of| =| at)? (\d+)\b`), "", 2, 1},
	{regexp.MustCompile(`(?i)\b(\d+)-way (tensor|pipeline|data|expert)`), "", 1, 2},
	{regexp.MustCompile(`(\d+) ?路(张量|流水线|数据|专家)并行`), "", 1, 2},
	{regexp.MustCompile(`(张量|流水线|数据|专家)并行(?:度|规模|大小|数)?(?:为|是|=|设为|设置为)? ?(\d+)`), "", 2, 1},
	{regexp.MustCompile(`(テンソル|パイプライン|データ|エキスパート)並列(?:数|度|サイズ)?(?:は|を|が|=)? ?(\d+)`), "", 2, 1},
}

// parallelKind is the TP/PP/DP/EP of a kind word in any language.
func parallelKind(w string) string {
	switch strings.ToLower(w) {
	case "tp", "tensor", "张量", "テンソル":
		return "TP"
	case "pp", "pipeline", "流水线", "パイプライン":
		return "PP"
	case "dp", "data", "数据", "データ":
		return "DP"
	case "ep", "expert", "专家", "エキスパート":
		return "EP"
	}
	return ""
}

// setting is a parallel size a clause names.
type setting struct {
	Raw  string
	Kind string
	Size int
}

func settingsIn(c string) []setting {
	var out []setting
	seen := map[string]bool{}
	for _, w := range settingWords {
		for _, m := range w.re.FindAllStringSubmatch(c, -1) {
			n, err := strconv.Atoi(m[w.size])
			kind := parallelKind(m[w.name])
			if err != nil || kind == "" {
				continue
			}
			key := kind + strconv.Itoa(n)
			if !seen[key] {
				seen[key] = true
				out = append(out, setting{Raw: strings.TrimSpace(strings.TrimLeft(m[0], " ,(")), Kind: kind, Size: n})
			}
		}
	}
	return out
}

// gpuCountWords: "8 GPUs", "8 块 GPU", "8 卡", "8 基の GPU", "GPU 8 枚".
var gpuCountWords = []*regexp.Regexp{
	regexp.MustCompile(`\b(\d+)\s?[x×]\s?(?:NVIDIA )?(?:[ABHL]\d{2,3}S?|GB\d{3}|MI\d{3}X?|910[BC]\d?)\b`),
	regexp.MustCompile(`(?i)\b(\d+)\s?(?:x\s?)?(?:[A-Z]+\d+[A-Z]* )?GPUs?\b`),
	regexp.MustCompile(`(\d+) ?(?:块|张|个|枚|基|台)(?:の)? ?(?:[A-Z]+\d+[A-Z]* ?)?GPU|(\d+) ?卡`),
	regexp.MustCompile(`GPU ?(\d+) ?(?:块|张|枚|基|台)`),
}

func gpuCountsIn(c string) []int {
	if !mayCountGPUs(c) {
		return nil
	}
	var out []int
	for _, re := range gpuCountWords {
		for _, m := range re.FindAllStringSubmatch(c, -1) {
			for _, g := range m[1:] {
				if n, err := strconv.Atoi(g); err == nil {
					out = append(out, n)
				}
			}
		}
	}
	return out
}

// gpuModelWord is a GPU's model name.
var gpuModelWord = regexp.MustCompile(`\b([ABHL]\d{2,3}S?|GB\d{3}|MI\d{3}X?|910[BC]\d?|RTX ?\d{4})\b`)

// contrastWord: a clause that sets something against another (unlike
// the H100, than on H100) names what the study did not run.
var contrastWord = gate(regexp.MustCompile(`(?i)\b(unlike|than|versus|vs|compared|comparison|other|such as|e\.g\.|instead|rather|against|from|baseline|reference|would|could|might|if)\b|不同|相比|相较|对比|比[^較较]|与其|而非|基准|参照|如果|若|より|比べ|異なり|ではなく|他の|基準|ベースライン|なら|場合`),
	"unlike", "than", "versus", "vs", "compar", "other", "such as", "e.g.", "instead", "rather", "against", "from", "baseline", "reference", "would", "could", "might", "if",
	"不同", "相比", "相较", "对比", "比", "与其", "而非", "基准", "参照", "如果", "若", "より", "異なり", "ではなく", "他の", "基準", "ベースライン", "なら", "場合")

// versionWord is an engine named with a version: "SGLang v0.5.4",
// "vLLM 0.10.1", "vLLM 版本 0.10.1", "SGLang バージョン 0.5.4".
var versionWord = regexp.MustCompile(`(?i)(vllm|sglang|tensorrt[-_ ]?llm|trt-?llm|lmdeploy|mindie)(?:\s|'s|的|の)*(version|版本|バージョン)?(?:\s|の)*(?:为|是|は|:|=)?\s*(v)?(\d+\.\d+(?:\.\d+)?(?:\.?post\d+|rc\d+|\.dev\d+)?)([^\s]?)`)

// workloadWords name a workload's settings: prompt counts, lengths,
// concurrency and request rate, in the three languages.
var workloadWords = []struct {
	re   *regexp.Regexp
	kind string   // prompts, input, output, concurrency, rate
	may  []string // what every match holds, lower case (see gated)
}{
	{regexp.MustCompile(`(?i)(\d[\d,]*)\s?(?:([A-Za-z][A-Za-z-]*)\s)?(?:prompts|requests)\b|(\d+) ?(?:条|个)(?:提示词?|请求)|(\d+) ?件の?(?:プロンプト|リクエスト)|(?:プロンプト|リクエスト)(?:数)?(?:は)? ?(\d+) ?件|(?:プロンプト|リクエスト)数(?:は|が|を)? ?(\d+)|(?:num[-_ ]prompts|prompt count|请求数|提示数|提示词数)(?:为|是|=|:| of)? ?(\d+)`), "prompts",
		[]string{"prompts", "requests", "条", "个", "件", "プロンプト", "リクエスト", "num", "prompt count", "请求数", "提示"}},
	{regexp.MustCompile(`(?i)input length(?: of| =)? (\d[\d,]*)|(\d[\d,]*)[- ]?(k|K)?[- ]token (?:inputs?|prompts)|(\d[\d,]*)(k|K)? input tokens|prompts? of (\d[\d,]*)(k|K)? (?:input )?tokens|输入长度(?:为|是)? ?(\d+)(k|K)?|入力長(?:は)? ?(\d+)(k|K)?`), "input",
		[]string{"input length", "token", "输入长度", "入力長"}},
	{regexp.MustCompile(`(?i)output length(?: of| =)? (\d[\d,]*)|(\d[\d,]*)(k|K)? output tokens|输出长度(?:为|是)? ?(\d+)|出力長(?:は)? ?(\d+)`), "output",
		[]string{"output", "输出长度", "出力長"}},
	{regexp.MustCompile(`(?i)concurrency(?: of| limit of| at)?\s?=?\s?(\d+)|(\d+) concurrent|并发(?:数|度|上限)?(?:为|是|=)? ?(\d+)|同時(?:実行数|リクエスト数|接続数)(?:は|を)? ?(\d+)`), "concurrency",
		[]string{"concurren", "并发", "同時"}},
	{regexp.MustCompile(`(?i)request rate(?: of| =)? (\d+(?:\.\d+)?)|请求速率(?:为|是)? ?(\d+(?:\.\d+)?)|リクエストレート(?:は)? ?(\d+(?:\.\d+)?)`), "rate",
		[]string{"request rate", "请求速率", "リクエストレート"}},
}

// notPromptCount are the words between a figure and "requests" that make
// it another count than the prompts a workload sends.
var notPromptCount = map[string]bool{"concurrent": true, "parallel": true, "simultaneous": true, "in-flight": true, "running": true,
	"failed": true, "more": true, "fewer": true, "extra": true, "warm-up": true, "warmup": true}

// workloadSetting is a workload setting a clause names.
type workloadSetting struct {
	Raw   string
	Kind  string
	Value float64
	K     bool // written with k: 4k may be 4000 or 4096
}

func workloadSettingsIn(c string) []workloadSetting {
	var out []workloadSetting
	low := lowerForSpellings(c)
	for _, w := range workloadWords {
		if !gated(low, w.may) {
			continue
		}
		for _, m := range w.re.FindAllStringSubmatchIndex(c, -1) {
			if glued(c, m[0]-1) {
				continue
			}
			ws := workloadSetting{Raw: c[m[0]:m[1]], Kind: w.kind}
			// "64 concurrent requests" counts no prompts.
			if w.kind == "prompts" && m[4] >= 0 && notPromptCount[strings.ToLower(c[m[4]:m[5]])] {
				continue
			}
			for g := 2; g+1 < len(m); g += 2 {
				if m[g] < 0 {
					continue
				}
				part := c[m[g]:m[g+1]]
				if part == "k" || part == "K" {
					ws.K = true
					continue
				}
				if v, err := strconv.ParseFloat(strings.ReplaceAll(part, ",", ""), 64); err == nil && ws.Value == 0 {
					ws.Value = v
				}
			}
			if ws.Value > 0 {
				out = append(out, ws)
			}
		}
	}
	return out
}

// hypothetical: a sentence about what was not run (what a size would
// need, a later version) states no fact of the study.
var hypothetical = gate(regexp.MustCompile(`(?i)\b(would|could|might|if|unless|later|newer|future|upcoming|next)\b|如果|若|假如|将来|未来|之后的|新版本|なら|場合|将来|今後|以降の`),
	"would", "could", "might", "if", "unless", "later", "newer", "future", "upcoming", "next", "如果", "若", "假如", "将来", "未来", "之后的", "新版本", "なら", "場合", "今後", "以降の")

// limitWord: a figure given as a budget or a limit is a setting, not a
// measurement.
var limitWord = regexp.MustCompile(`(?i)\b(budget|slo|limit|target|threshold|at most|under|below|within|cap)\b|预算|上限|目标|阈值|以内|不超过|予算|目標|しきい値|以内|以下`)

// partWord: a count of part of the requests ("the first 100 requests").
var partWord = regexp.MustCompile(`(?i)\b(first|last|warm-?up|each|every|per|of the)\b|前|最初の|最後の|ウォームアップ|每`)

// The prefilters below are cheap tests that are true of every clause the
// patterns they guard could match (FuzzProseFactPrefilters holds them to
// it): most prose states none of these, and the patterns are costly.

// containsAnyOf reports whether s holds one of the words; a long s (ſ),
// which (?i) reads as an s, may stand in any of them.
func containsAnyOf(s string, words ...string) bool {
	if strings.Contains(s, "ſ") {
		return true
	}
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// mayStateFactor guards numericFactor and wordFactors.
func mayStateFactor(low string) bool {
	return containsAnyOf(low, "x", "×", "倍", "fold", "times", "doubl", "twice", "tripl", "thrice", "half", "halv", "番", "半")
}

// gatedRegexp is a pattern that runs only on text holding one of the
// words every match holds (may, lower case): most sentences hold none, and
// a literal scan costs a fraction of the pattern. FuzzProseFactPrefilters
// holds each list to its pattern.
type gatedRegexp struct {
	*regexp.Regexp
	may []string
}

func gate(re *regexp.Regexp, may ...string) gatedRegexp { return gatedRegexp{re, may} }

// MatchString is the pattern's, on text that passes the gate.
func (g gatedRegexp) MatchString(s string) bool {
	return gated(lowerForSpellings(s), g.may) && g.Regexp.MatchString(s)
}

// gated reports whether a text, lowered by lowerForSpellings, holds one of
// the words every match of a pattern holds: a literal scan that spares the
// pattern most sentences, each list held to its pattern by
// FuzzProseFactPrefilters. containsAnyOf takes the "ſ" that (?i) reads as "s";
// lowerForSpellings, the Kelvin sign.
func gated(low string, words []string) bool { return containsAnyOf(low, words...) }

// mayBeSuperlative guards superlatives.
func mayBeSuperlative(low string) bool {
	return containsAnyOf(low, "highest", "largest", "greatest", "longest", "lowest", "smallest", "shortest", "fewest", "fastest", "best",
		"quickest", "slowest", "worst", "first", "top", "最", "一番", "トップ", "位")
}

// mayCompare guards thanWord, ahead and behind.
func mayCompare(low string) bool {
	return containsAnyOf(low, "than", "fast", "slow", "outperform", "beat", "ahead", "behind", "trail", "throughput",
		"比", "より", "快", "慢", "领先", "落后", "上回", "下回")
}

// mayStateWorkload guards workloadWords.
func mayStateWorkload(low string) bool {
	return containsAnyOf(low, "prompt", "request", "input", "output", "token", "concurren", "rate",
		"提示", "请求", "输入", "输出", "并发", "速率", "プロンプト", "リクエスト", "入力", "出力", "同時", "レート")
}

// mayCountGPUs guards gpuCountWords.
// (?i) takes any case of "gpu", so the scan is of the lowered text.
func mayCountGPUs(s string) bool { return containsAnyOf(lowerForSpellings(s), "gpu", "卡", "x", "×") }

// perGPUWord: a statement per GPU ranks values the fact model keeps per
// node; it is left unbound rather than judged on the wrong figure.
var perGPUWord = regexp.MustCompile(`(?i)\bper[- ]gpu\b|/gpu\b|每 ?(?:块|张)? ?GPU|单卡|GPU ?(?:1 ?基)?あたり|GPU 当たり`)
