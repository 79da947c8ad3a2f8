//! Tables a screen reader reads as tables (#68). egui_extras lays a table out as a run
//! of cells with no table, row or header in the accessibility tree: Orca read the
//! customer table as a flat list of labels. Here each table is a node of role Table
//! (named, with its row and column counts), each drawn row a Row node with its index,
//! each cell a Cell (ColumnHeader in the header) with its column, and a row that opens
//! is one stop of the keyboard's Tab, opened with Enter or a screen reader's "click".

use egui::accesskit::{Action, Role};
use egui::{Id, Response, Sense, Ui, UiBuilder};

/// A table's node: what its rows hang from.
#[derive(Clone, Copy, Debug)]
pub struct Grid {
    id: Id,
    /// Rows open something (Enter, a click, a screen reader's action).
    opens: bool,
}

/// Draws `add` (a table) inside a node of role Table named `label`, of `rows` rows
/// (the header not counted) and `columns` columns.
pub fn grid<R>(
    ui: &mut Ui,
    label: &str,
    rows: usize,
    columns: usize,
    opens: bool,
    add: impl FnOnce(&mut Ui, Grid) -> R,
) -> R {
    ui.scope_builder(
        UiBuilder::new()
            .accessibility_role(Role::Table)
            .accessibility_label(label),
        |ui| {
            let id = ui.unique_id();
            ui.ctx().accesskit_node_builder(id, |n| {
                n.set_row_count(rows + 1);
                n.set_column_count(columns);
            });
            add(ui, Grid { id, opens })
        },
    )
    .inner
}

/// One row of a [`Grid`] as it is drawn: its cells go through [`GridRow::col`].
pub struct GridRow<'r, 'a, 'b> {
    row: &'r mut egui_extras::TableRow<'a, 'b>,
    grid: Grid,
    /// The row's index among the table's rows, the header being 0.
    index: usize,
    node: Option<Id>,
    column: usize,
    /// The row's words, cell by cell: its name while it has the keyboard's focus, so a
    /// screen reader says the row, not "table row".
    said: Vec<String>,
}

impl Grid {
    /// The header row `h`.
    pub fn header<'r, 'a, 'b>(
        self,
        h: &'r mut egui_extras::TableRow<'a, 'b>,
    ) -> GridRow<'r, 'a, 'b> {
        GridRow {
            row: h,
            grid: self,
            index: 0,
            node: None,
            column: 0,
            said: Vec::new(),
        }
    }

    /// Body row `row` (its index is the table's own, from 0).
    pub fn row<'r, 'a, 'b>(
        self,
        row: &'r mut egui_extras::TableRow<'a, 'b>,
    ) -> GridRow<'r, 'a, 'b> {
        let index = row.index() + 1;
        GridRow {
            row,
            grid: self,
            index,
            node: None,
            column: 0,
            said: Vec::new(),
        }
    }
}

impl GridRow<'_, '_, '_> {
    /// Draws the next cell.
    pub fn col(&mut self, add: impl FnOnce(&mut Ui)) {
        let (grid, index, column) = (self.grid, self.index, self.column);
        let node = &mut self.node;
        self.row.col(|ui| {
            let row = *node.get_or_insert_with(|| row_node(ui, grid, index));
            let role = if index == 0 {
                Role::ColumnHeader
            } else {
                Role::Cell
            };
            ui.scope_builder(
                UiBuilder::new()
                    .accessibility_parent(row)
                    .accessibility_role(role),
                |ui| {
                    ui.ctx().accesskit_node_builder(ui.unique_id(), |n| {
                        n.set_column_index(column);
                        n.set_row_index(index);
                    });
                    add(ui);
                },
            );
        });
        self.column += 1;
    }

    /// Draws the next cell, whose words (`said`) are part of the row's name.
    pub fn col_said(&mut self, said: &str, add: impl FnOnce(&mut Ui)) {
        if !said.is_empty() {
            self.said.push(said.to_string());
        }
        self.col(add);
    }

    /// After the last cell: the row's response (a click on any cell), and whether it is
    /// to be opened — clicked, Enter while it has the keyboard's focus, or a screen
    /// reader's "click" on it. The focused row is outlined.
    pub fn finish(self) -> (Response, bool) {
        let response = self.row.response();
        let Some(id) = self.node else {
            return (response, false);
        };
        let ctx = response.ctx.clone();
        let focused = ctx.memory(|m| m.has_focus(id));
        if focused {
            let stroke = ctx.global_style().visuals.selection.stroke;
            ctx.layer_painter(response.layer_id).rect_stroke(
                response.rect.shrink(1.0),
                2.0,
                stroke,
                egui::StrokeKind::Inside,
            );
        }
        let opened = self.grid.opens
            && (response.clicked()
                || (focused && ctx.input(|i| i.key_pressed(egui::Key::Enter)))
                || ctx.input(|i| i.has_accesskit_action_request(id, Action::Click)));
        if self.grid.opens {
            ctx.accesskit_node_builder(id, |n| {
                n.add_action(Action::Click);
                n.add_action(Action::Focus);
                // Named only while focused: what a screen reader says as focus comes;
                // the cells, read one by one, say the same words (a name on every row
                // would say each twice to a query of the tree).
                if focused && !self.said.is_empty() {
                    n.set_label(self.said.join(", "));
                }
            });
        }
        (response, opened)
    }
}

/// The node of row `index` (0: the header), made in its first cell `ui`: a child of the
/// table's node, and one stop of Tab when rows open (its cells are not: a row is one
/// stop, not six).
fn row_node(ui: &mut Ui, grid: Grid, index: usize) -> Id {
    let sense = if grid.opens && index > 0 {
        Sense::focusable_noninteractive()
    } else {
        Sense::hover()
    };
    let child = ui.new_child(
        UiBuilder::new()
            .id_salt(("grid-row", index))
            .accessibility_parent(grid.id)
            .accessibility_role(Role::Row)
            .sense(sense)
            .max_rect(ui.max_rect()),
    );
    let id = child.unique_id();
    ui.ctx()
        .accesskit_node_builder(id, |n| n.set_row_index(index));
    id
}
