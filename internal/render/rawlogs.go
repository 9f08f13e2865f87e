package render

import (
	htmltemplate "html/template"
	"strconv"
	"strings"

	"github.com/perflab/perflab/internal/benchlog"
	"github.com/perflab/perflab/internal/study"
)

// A saved report is shown as an excerpt of at most excerptLines lines and
// about excerptBytes bytes.
const (
	excerptLines = 40
	excerptBytes = 4096
)

// blockText is a block's lines as its log printed them, and how many of
// them the page numbers; of a saved report, its first lines, numbered,
// and what is left out.
func (p *reportPage) blockText(file string, b *benchlog.Block) (text string, numbered int) {
	lg := p.logOf[file]
	if lg == nil || b == nil {
		return "", 1
	}
	if !b.Format.IsSavedReport() {
		text = lg.BlockText(b)
		return text, strings.Count(text, "\n") + 1
	}
	ex := lg.BlockExcerpt(b, excerptLines, excerptBytes)
	numbered = strings.Count(ex.Text, "\n") + 1
	switch {
	case ex.MoreLines > 0:
		return ex.Text + "\n" + p.loc.T("run.raw_more_lines", "N", ex.MoreLines, "File", p.repoPath(lg.File)), numbered
	case ex.MoreBytes > 0:
		return ex.Text + "\n" + p.loc.T("run.raw_more_bytes", "N", ex.MoreBytes, "File", p.repoPath(lg.File)), numbered
	}
	return ex.Text, numbered
}

// rawRich is a raw result as a log block, with a link to its lines in the
// repository. The first time a block is shown its lines are numbered
// targets; shown again (its step and the other cases), it has no ids.
func (p *reportPage) rawRich(file string, b *benchlog.Block) rich {
	if again, ok := p.rawResults[b]; ok {
		return again()
	}
	text, numbered := p.blockText(file, b)
	var view rich
	if p.r.RepoURL != "" {
		// The log in the repository, its block's lines highlighted.
		u := repoLines(p.r.RepoURL, p.repoPath(file), b.Line, b.Line+numbered-1)
		view = p.loc.R("run.view_source", "URL", rich{u, htmltemplate.HTML(htmlText.Replace(u))})
		view = rich{"\n" + view.MD, "<p>" + view.HTML + "</p>\n"}
	}
	summary := p.loc.T("run.raw_result")
	at := logAnchors{lineIDPrefix(p.repoPath(file)), b.Line, numbered}
	s := richJoin(richLog(text, summary, at), view)
	if p.r.RepoURL == "" {
		// GitHub shows no line of a code block as a target: the Markdown
		// puts one before the block for each line the page numbers.
		var ids strings.Builder
		for line := b.Line; line < b.Line+numbered; line++ {
			ids.WriteString(`<a id="` + at.prefix + "-" + strconv.Itoa(line) + `"></a>`)
		}
		s.MD = ids.String() + "\n\n" + s.MD
	}
	p.rawResults[b] = func() rich { return richJoin(richLog(text, summary, logAnchors{}), view) }
	return s
}

// rawRepeats is rawRich, and when the block is the first repeat of a
// workload, every repeat's block under its number: each line a mean is
// made of is on the page.
func (p *reportPage) rawRepeats(run *study.Run, file string, b *benchlog.Block) rich {
	lg := p.logOf[file]
	if lg == nil || lg.Repeat == 0 {
		return p.rawRich(file, b)
	}
	var logs []*study.Log
	for i := range run.Logs {
		if o := &run.Logs[i]; o.Workload == lg.Workload && len(o.Blocks) > 0 {
			logs = append(logs, o)
		}
	}
	parts := make([]rich, 0, 2*len(logs))
	for _, o := range logs {
		title := p.loc.R("run.repeat", "N", o.Repeat, "Of", len(logs))
		parts = append(parts, rich{"\n\n" + title.MD + "\n\n", "<p>" + title.HTML + "</p>\n"}, p.rawRich(o.File, &o.Blocks[0]))
	}
	all := richJoin(parts...)
	all.MD = strings.TrimPrefix(all.MD, "\n\n") // no blank line before the first title
	return all
}
