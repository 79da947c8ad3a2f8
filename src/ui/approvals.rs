//! The desk's four eyes in Activity: the requests a colleague asked ("Por aprobar"),
//! each with what it would do, approved or rejected here with a note; the clerk's own
//! with where they stand. Read with the Activity panel's entries; decided off the UI
//! thread.

use crate::journal::approvals::Request;
use crate::tr;
use crate::ui::command::{Command, WindowCommand};
use crate::ui::journal::AppJournal;
use crate::ui::task::{Spawner, Task, take_finished};
use crate::ui::widgets;
use egui::Ui;
use std::collections::HashMap;

/// Sets what the desk's policy asks of `runner`'s run of `rows` (from the file named
/// `file`, or contracts): the rows carry out its approval, or why nothing is sent (the
/// request waits for a colleague, or was rejected), in words.
pub async fn clear_run(
    runner: &mut crate::bulk::run::Runner,
    rows: &[crate::bulk::BulkRow],
    file: Option<String>,
) -> Result<(), String> {
    runner.four_eyes = cleared(runner.four_eyes_for(rows, file).await)?;
    Ok(())
}

/// A run's four eyes in the app: the approval it carries out, or why nothing is sent, in
/// words (the request waits for a colleague, or was rejected).
pub fn cleared(
    r: Result<
        (
            crate::journal::approvals::FourEyes,
            Option<Box<crate::journal::approvals::Request>>,
        ),
        crate::journal::approvals::FourEyesError,
    >,
) -> Result<crate::journal::approvals::FourEyes, String> {
    use crate::journal::approvals::FourEyesError;
    match r {
        Ok((eyes, _)) => Ok(eyes),
        Err(FourEyesError::Journal(e)) => Err(crate::i18n::journal_not_sent(&e)),
        Err(FourEyesError::NotApproved(r)) => {
            Err(crate::i18n::not_approved(&r, crate::i18n::AskedIn::Issue))
        }
    }
}

/// How many requests Activity lists.
pub const LISTED: usize = 50;

/// The requests shown, and a decision on its way.
#[derive(Default)]
pub struct Approvals {
    /// Newest first.
    pub requests: Vec<Request>,
    /// The note typed for each request.
    notes: HashMap<i64, String>,
    deciding: Option<Task<Result<String, String>>>,
    /// What the last decision came to.
    said: Option<Result<String, String>>,
    /// A decision was recorded: the panel reads the journal again.
    pub changed: bool,
    /// Who approved what each entry (by its number) carried out.
    pub used: HashMap<i64, crate::journal::approvals::ApprovedBy>,
}

impl Approvals {
    /// How many wait for this clerk's decision.
    pub fn for_me(&self) -> usize {
        self.requests.iter().filter(|r| r.awaits_another()).count()
    }

    /// Approves or rejects request `id` with `note` (a rejection's reason).
    pub fn decide(&mut self, journal: &AppJournal, spawner: &Spawner, id: i64, approve: bool) {
        let note = self
            .notes
            .get(&id)
            .map(|n| n.trim().to_string())
            .filter(|n| !n.is_empty());
        if !approve && note.is_none() {
            self.said = Some(Err(tr!("ap-ui-reject-needs-note")));
            return;
        }
        let Some(request) = self.requests.iter().find(|r| r.id == id).cloned() else {
            return;
        };
        let journal = journal.clone();
        self.said = None;
        self.deciding = Some(spawner.spawn(async move {
            journal
                .write(move |j| j.decide_approval(id, approve, note.as_deref()))
                .await?;
            let what = crate::i18n::approval_what(request.what, &request.summary);
            Ok(if approve {
                tr!(
                    "ap-ui-approved",
                    id = id,
                    what = what,
                    who = crate::i18n::writer_by(&request.by)
                )
            } else {
                tr!("ap-ui-rejected", id = id, what = what)
            })
        }));
    }

    /// Takes a finished decision.
    pub fn poll(&mut self) {
        if let Some(r) = take_finished(&mut self.deciding) {
            let r = crate::ui::task::flat(r);
            if r.is_ok() {
                self.changed = true;
            }
            self.said = Some(r);
        }
    }

    /// Draws the requests (nothing on a journal without any).
    pub fn ui(&mut self, ui: &mut Ui, commands: &mut Vec<Command>) {
        if self.requests.is_empty() && self.said.is_none() {
            return;
        }
        let waiting = self.for_me();
        if waiting > 0 {
            widgets::chip(
                ui,
                &tr!("ap-ui-badge", count = waiting),
                widgets::CHIP_COLORS[2],
            );
        }
        egui::CollapsingHeader::new(tr!("ap-ui-title", count = self.requests.len()))
            .id_salt("act_approvals")
            .default_open(waiting > 0)
            .show(ui, |ui| {
                match &self.said {
                    Some(Ok(t)) => {
                        ui.label(t.as_str());
                    }
                    Some(Err(e)) => widgets::error_text(ui, e),
                    None => {}
                }
                let busy = self.deciding.is_some();
                egui::ScrollArea::vertical()
                    .id_salt("act_approvals_list")
                    .max_height(220.0)
                    .show(ui, |ui| {
                        for r in &self.requests {
                            ui.label(crate::i18n::approval_line(r));
                            if r.awaits_another() {
                                let note = self.notes.entry(r.id).or_default();
                                ui.horizontal(|ui| {
                                    // The label before its field, as everywhere else; each
                                    // field and button names its request, so a screen
                                    // reader going through several says which is which.
                                    let label = ui.label(tr!("ap-ui-note-label", id = r.id)).id;
                                    ui.add(
                                        egui::TextEdit::singleline(note)
                                            .hint_text(tr!("ap-ui-note"))
                                            .desired_width(260.0),
                                    )
                                    .labelled_by(label);
                                    let decide =
                                        |ui: &mut egui::Ui, shown: String, name: String| {
                                            let b = ui.add_enabled(!busy, egui::Button::new(shown));
                                            b.widget_info(|| {
                                                egui::WidgetInfo::labeled(
                                                    egui::Role::Button,
                                                    !busy,
                                                    name.clone(),
                                                )
                                            });
                                            b.clicked()
                                        };
                                    let choices = [
                                        (
                                            tr!("ap-ui-approve"),
                                            tr!("ap-ui-approve-n", id = r.id),
                                            true,
                                        ),
                                        (
                                            tr!("ap-ui-reject"),
                                            tr!("ap-ui-reject-n", id = r.id),
                                            false,
                                        ),
                                    ];
                                    for (shown, name, approve) in choices {
                                        if decide(ui, shown, name) {
                                            commands.push(Command::Window(
                                                WindowCommand::DecideApproval { id: r.id, approve },
                                            ));
                                        }
                                    }
                                });
                            } else if r.mine && r.to_carry_out() {
                                ui.label(tr!("ap-ui-mine-approved"));
                            }
                            ui.add_space(4.0);
                        }
                    });
            });
    }
}
