# What customers read: the e-mails sent with their statements, invoices and reminders.
# A clerk may replace any of them with a file of their own (`invoice-desk email template`).

mail-statement-subject = Estado de cuenta al { $date } · { $organization }
mail-statement-body = { $whom ->
    [person]
        Estimado o estimada { $customer }:

        Junto con saludarle, adjuntamos su estado de cuenta al { $date }. A esa fecha, el saldo pendiente es de { $owed }.

        En el documento encontrará el detalle de cada factura y cómo pagarla. Si ya realizó el pago, le rogamos no considerar este mensaje.

        Ante cualquier consulta, puede responder este correo o escribirnos a { $contact }.

        Saludos cordiales,
        { $organization }
   *[organization]
        Estimados { $customer }:

        Junto con saludarles, adjuntamos su estado de cuenta al { $date }. A esa fecha, el saldo pendiente es de { $owed }.

        En el documento encontrarán el detalle de cada factura y cómo pagarla. Si ya realizaron el pago, les rogamos no considerar este mensaje.

        Ante cualquier consulta, pueden responder este correo o escribirnos a { $contact }.

        Saludos cordiales,
        { $organization }
}

mail-invoice-subject = Factura { $invoice } · { $organization }
mail-invoice-body = { $whom ->
    [person]
        Estimado o estimada { $customer }:

        Adjuntamos la factura { $invoice } por { $amount }, con vencimiento el { $due }.

        En el documento encontrará cómo pagarla. Ante cualquier consulta, puede responder este correo o escribirnos a { $contact }.

        Saludos cordiales,
        { $organization }
   *[organization]
        Estimados { $customer }:

        Adjuntamos la factura { $invoice } por { $amount }, con vencimiento el { $due }.

        En el documento encontrarán cómo pagarla. Ante cualquier consulta, pueden responder este correo o escribirnos a { $contact }.

        Saludos cordiales,
        { $organization }
}

mail-reminder-30-subject = Recordatorio de pago · { $organization }
mail-reminder-30-body = { $whom ->
    [person]
        Estimado o estimada { $customer }:

        Le recordamos que, al { $date }, registramos un saldo pendiente de { $owed }, con facturas vencidas hace { $days } días.

        Adjuntamos el estado de cuenta con el detalle de cada factura y cómo pagarla. Si ya realizó el pago, le rogamos no considerar este mensaje y, si puede, enviarnos el comprobante.

        Ante cualquier consulta, puede responder este correo o escribirnos a { $contact }.

        Saludos cordiales,
        { $organization }
   *[organization]
        Estimados { $customer }:

        Les recordamos que, al { $date }, registramos un saldo pendiente de { $owed }, con facturas vencidas hace { $days } días.

        Adjuntamos el estado de cuenta con el detalle de cada factura y cómo pagarla. Si ya realizaron el pago, les rogamos no considerar este mensaje y, si pueden, enviarnos el comprobante.

        Ante cualquier consulta, pueden responder este correo o escribirnos a { $contact }.

        Saludos cordiales,
        { $organization }
}

mail-reminder-60-subject = Segundo aviso: saldo vencido · { $organization }
mail-reminder-60-body = { $whom ->
    [person]
        Estimado o estimada { $customer }:

        A la fecha no hemos recibido el pago de facturas vencidas hace { $days } días. Al { $date }, el saldo pendiente es de { $owed }.

        Adjuntamos el estado de cuenta con el detalle. Le agradeceremos regularizar este saldo a la brevedad o, si existe algún inconveniente, contactarnos para acordar una solución.

        Puede responder este correo o escribirnos a { $contact }.

        Saludos cordiales,
        { $organization }
   *[organization]
        Estimados { $customer }:

        A la fecha no hemos recibido el pago de facturas vencidas hace { $days } días. Al { $date }, el saldo pendiente es de { $owed }.

        Adjuntamos el estado de cuenta con el detalle. Les agradeceremos regularizar este saldo a la brevedad o, si existe algún inconveniente, contactarnos para acordar una solución.

        Pueden responder este correo o escribirnos a { $contact }.

        Saludos cordiales,
        { $organization }
}

mail-reminder-90-subject = Aviso de deuda vencida hace más de 90 días · { $organization }
mail-reminder-90-body = { $whom ->
    [person]
        Estimado o estimada { $customer }:

        Su cuenta registra facturas vencidas hace { $days } días. Al { $date }, el saldo pendiente es de { $owed }.

        Adjuntamos el estado de cuenta con el detalle. Le solicitamos regularizar este saldo o contactarnos en los próximos días para revisar la situación.

        Puede responder este correo o escribirnos a { $contact }.

        Saludos cordiales,
        { $organization }
   *[organization]
        Estimados { $customer }:

        Su cuenta registra facturas vencidas hace { $days } días. Al { $date }, el saldo pendiente es de { $owed }.

        Adjuntamos el estado de cuenta con el detalle. Les solicitamos regularizar este saldo o contactarnos en los próximos días para revisar la situación.

        Pueden responder este correo o escribirnos a { $contact }.

        Saludos cordiales,
        { $organization }
}
