package render

import htmltemplate "html/template"

// startView is the top of a report, up to the conclusion table, one
// view for both formats: the title, the answer, the other languages, the
// example's banner, the recommended command and the baseline. A zero
// rich is a part the report lacks.
type startView struct {
	Title, Answer, Languages, Example, OneRun rich
	Recommended, Command, Derived, Baseline   rich
	TableIntro                                rich
}

// start is the top of the report, made once a page.
func (p *reportPage) Start() *startView { return p.startV.get(p.newStart) }

func (p *reportPage) newStart() *startView {
	loc, s := p.loc, p.s
	v := &startView{Answer: p.answer(), TableIntro: loc.R("conclusion.table_intro"), Languages: languageLinks(loc, p.r.langLinks(s.ID, p.lang)),
		Title:       loc.R("title."+string(s.Objective), "Model", modelName(s.Model), "GPUs", s.Hardware.GPUs(), "GPU", s.Hardware.GPU),
		Recommended: loc.R("conclusion.recommended."+string(s.Objective), "Model", s.Model, "GPU", s.Hardware.GPU)}
	if s.Example() {
		v.Example = richJoin(loc.R("label", "Label", loc.R("example.label")), loc.R("example.banner"))
	}
	if len(s.Runs) == 1 {
		v.OneRun = richJoin(loc.R("label", "Label", loc.R("one_run.label")), loc.R("one_run.text"))
	}
	if b := p.rep.Baseline; len(b) > 0 && b[0] != nil {
		v.Baseline = loc.R("conclusion.baseline", "Name", b[0].Name, "Command", richCode(b[0].Command))
	}
	rec := p.rep.Recommended[0]
	v.Command, v.Derived = richFence(rec.Command, "bash", loc.T("code.block")), p.derivedNote(rec)
	return v
}

// languageLinks links the report in each language, each name set in its
// own language's font (lang).
func languageLinks(loc *localizer, langs []LangLink) rich {
	links := make([]rich, len(langs))
	for i, l := range langs {
		links[i] = rich{"[" + l.Name + "](" + l.MarkdownHref + ")",
			htmltemplate.HTML(`<a href="` + htmlText.Replace(l.HTMLHref) + `" lang="` + l.Code + `">` + l.Name + `</a>`)}
	}
	return richJoin(loc.R("report.languages"), richList(richFigure(" · "), links...))
}
