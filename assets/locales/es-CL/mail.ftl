# What customers read: the e-mails sent with their statements, invoices and reminders.
# A clerk may replace any of them with a file of their own (`invoice-desk email template`).

mail-statement-subject = Estado de cuenta al { $date } · { $organization }
mail-statement-body =
    Estimados { $customer }:

    Junto con saludarles, adjuntamos su estado de cuenta al { $date }. A esa fecha, el saldo pendiente es de { $owed }.

    En el documento encontrarán el detalle de cada factura y cómo pagarla. Si ya realizaron el pago, les rogamos no considerar este mensaje.

    Ante cualquier consulta, pueden responder este correo o escribirnos a { $contact }.

    Saludos cordiales,
    { $organization }

mail-invoice-subject = Factura { $invoice } · { $organization }
mail-invoice-body =
    Estimados { $customer }:

    Adjuntamos la factura { $invoice } por { $amount }, con vencimiento el { $due }.

    En el documento encontrarán cómo pagarla. Ante cualquier consulta, pueden responder este correo o escribirnos a { $contact }.

    Saludos cordiales,
    { $organization }

mail-reminder-30-subject = Recordatorio de pago · { $organization }
mail-reminder-30-body =
    Estimados { $customer }:

    Les recordamos que, al { $date }, registramos un saldo pendiente de { $owed }, con facturas vencidas hace { $days } días.

    Adjuntamos el estado de cuenta con el detalle de cada factura y cómo pagarla. Si ya realizaron el pago, les rogamos no considerar este mensaje y, si pueden, enviarnos el comprobante.

    Ante cualquier consulta, pueden responder este correo o escribirnos a { $contact }.

    Saludos cordiales,
    { $organization }

mail-reminder-60-subject = Segundo aviso: saldo vencido · { $organization }
mail-reminder-60-body =
    Estimados { $customer }:

    A la fecha no hemos recibido el pago de facturas vencidas hace { $days } días. Al { $date }, el saldo pendiente es de { $owed }.

    Adjuntamos el estado de cuenta con el detalle. Les agradeceremos regularizar este saldo a la brevedad o, si existe algún inconveniente, contactarnos para acordar una solución.

    Pueden responder este correo o escribirnos a { $contact }.

    Saludos cordiales,
    { $organization }

mail-reminder-90-subject = Aviso de deuda vencida hace más de 90 días · { $organization }
mail-reminder-90-body =
    Estimados { $customer }:

    Su cuenta registra facturas vencidas hace { $days } días. Al { $date }, el saldo pendiente es de { $owed }.

    Adjuntamos el estado de cuenta con el detalle. Les solicitamos regularizar este saldo o contactarnos en los próximos días para revisar la situación.

    Pueden responder este correo o escribirnos a { $contact }.

    Saludos cordiales,
    { $organization }
