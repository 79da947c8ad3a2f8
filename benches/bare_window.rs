//! The baseline for start-up, idle CPU and memory: a bare eframe window built the same
//! way as the app (glow renderer, same features). With INVOICE_DESK_TRACE=1 it prints when
//! its first frame was drawn, like the app.

struct Bare {
    first: bool,
}

impl eframe::App for Bare {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        if !self.first {
            self.first = true;
            if invoice_desk::ui::trace_enabled() {
                eprintln!(
                    "invoice-desk trace: first-frame unix_ms={}",
                    invoice_desk::ui::unix_ms()
                );
            }
        }
        egui::CentralPanel::default_margins().show(ui, |ui| {
            ui.label("bare eframe window");
        });
    }
}

fn main() -> eframe::Result<()> {
    let options = eframe::NativeOptions {
        renderer: eframe::Renderer::Glow,
        viewport: egui::ViewportBuilder::default()
            .with_title("bare")
            .with_inner_size([1100.0, 720.0]),
        ..Default::default()
    };
    eframe::run_native(
        "bare-window",
        options,
        Box::new(|_cc| Ok(Box::new(Bare { first: false }))),
    )
}
