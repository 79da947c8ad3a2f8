## La línea de comandos (invoice-desk <comando>): lo que dice en stderr y como resultado.
## La salida para máquinas (--json, CSV, códigos de salida) nunca pasa por aquí.

cli-could-not-start = No se pudo iniciar: { $why }
cli-window-failed = No se pudo abrir la ventana: { $why }
cli-details = Detalles:
cli-cannot-write-output = No se pudo escribir la salida: { $why }
cli-sandbox-stop = Presione Ctrl+C para detenerlo.
cli-sandbox-failed = No se pudo iniciar el sandbox: { $why }
cli-sandbox-port-in-use = El puerto { $port } está en uso: elija otro con --port (0 elige uno libre).
cli-no-sandbox = Esta versión no trae el sandbox incorporado.
cli-not-a-terminal = No se va a { $what } sin --yes: la entrada no es una terminal, así que nadie puede confirmarlo.
cli-what-void = anular
cli-what-send = enviar
cli-could-not-read-answer = No se pudo leer la respuesta: { $why }
cli-yes-no = [s/N]

## Token
cli-token-valid-until = El token es válido hasta el { $until } (en { $minutes } minutos).
cli-token-valid = El token es válido (el proveedor no dijo por cuánto tiempo).
cli-token-api-key = Este perfil usa una clave de API: no hay token. La clave fue aceptada.
cli-token-state = Estado del token: { $state }

## Emitir, anular
cli-currency-not-offered = { $code } no está entre las monedas de este perfil ({ $offered }). Agréguela al perfil (invoice-desk profile add … --currencies { $list },{ $code }) o defina INVOICE_DESK_CURRENCIES.
cli-field-problem = --field: { $why }
cli-due-problem = --due: { $why }
cli-to-check = Para revisarlo: invoice-desk journal resolve
cli-unknown-create-ref = (La referencia externa es { $reference }; no se vuelve a enviar antes de revisarla.)
cli-unknown-void = (La factura es { $id }; no se vuelve a anular antes de revisarla.)
cli-void-confirm = ¿Anular la factura { $id } del cliente { $customer } por { $amount }? No se puede deshacer.
cli-not-voided = No se anuló.
cli-nothing-sent = No se envió nada.
cli-journal-where = El registro: { $path } (INVOICE_DESK_JOURNAL lo cambia de lugar). Cada emisión, anulación y exportación se anota ahí primero.
cli-not-sent = No se envió: { $why }
cli-allow-similar = Si de verdad es otra factura, ejecute el mismo comando con --allow-similar.
cli-see-resolve = Vea qué pasó con ella: invoice-desk journal resolve
cli-blocked-voided = la factura { $id } ya la anuló { $who } el { $when }.
cli-blocked-issued = la referencia { $reference } ya la emitió { $who } el { $when }: factura { $id }.
cli-blocked-issued-missing = el registro dice que la referencia { $reference } se emitió como la factura { $id } (lo anotó { $who } el { $when }), pero el servicio no tiene esa factura ni ninguna con esa referencia.
cli-reissue-missing = Si nunca se emitió, emítala con --reissue-missing (la decisión queda en el registro, con quién la tomó).
cli-blocked-pending-void = la factura { $id } la está anulando { $who } ahora, o el resultado de esa anulación aún está por revisar (desde el { $when }).
cli-blocked-pending = la referencia { $reference } la está emitiendo { $who } ahora, o su resultado aún está por revisar (desde el { $when }).
cli-blocked-similar = parece una factura ya emitida: { $id } (referencia { $reference }) al cliente { $customer } por { $amount }{ $due }, el { $when }.
cli-blocked-due = , con vencimiento el { $date }
cli-not-known-yet = aún sin número
cli-none = ninguna
cli-at-service = No se envió: la referencia { $reference } ya está en el servicio: factura { $id }{ $created }.
cli-created-on = , creada el { $when }
cli-at-service-unchecked = No se envió: no se pudo revisar si la referencia { $reference } ya está en el servicio.
cli-outcome-not-recorded = Aviso: el resultado no se pudo anotar en el registro; aparece como por revisar hasta que `invoice-desk journal resolve` lo revise. { $why }

## Facturas como texto
cli-invoice = Factura { $id }  [{ $status }]
cli-currency-missing = (falta en la respuesta del servicio)

## Listar, exportar
cli-invoices = { $count ->
    [one] 1 factura.
   *[other] { $count } facturas.
}
cli-cannot-export-to = No se puede exportar a { $path }: { $why }
cli-export-not-recorded = Aviso: el registro no pudo anotar cómo terminó la exportación. { $why }
cli-export-could-not-start = No se pudo comenzar la exportación: { $why }
cli-export-progress = { $items ->
        [one] 1 factura
       *[other] { $items } facturas
    } ({ $pages ->
        [one] 1 página
       *[other] { $pages } páginas
    })…
cli-export-failed = No se pudo exportar: { $why }
cli-not-changed = { $path } no se modificó.
cli-write-failed = No se pudo escribir { $path }: { $why }. El archivo que existía quedó como estaba.
cli-exported = { $count ->
    [one] Se exportó 1 factura a { $path }.
   *[other] Se exportaron { $count } facturas a { $path }.
}
cli-too-many-for-excel = el cliente tiene más facturas de las que caben en una hoja de Excel ({ $max })
cli-xlsx-as-text = Aviso: { $count } montos tienen más de 15 cifras significativas; Excel no los puede guardar como números, así que van como texto (marcados en amarillo).
cli-xlsx-cut = Aviso: { $count } textos son más largos de lo que cabe en una celda de Excel (32.767 caracteres); se cortan, terminan en "…" y van marcados en amarillo. La exportación CSV los conserva enteros.

## Facturación masiva
cli-report-unwritable = No se puede escribir el informe en { $path }: { $why }
cli-cannot-read = No se puede leer { $path }: { $why }
cli-problems = { $count ->
    [one] 1 problema en { $path }: no se envió nada (--skip-invalid envía las filas válidas).
   *[other] { $count } problemas en { $path }: no se envió nada (--skip-invalid envía las filas válidas).
}
cli-row = fila { $row }: { $what }
cli-row-cell = fila { $row }, columna { $column }: { $what }
cli-unknown-columns = columnas no reconocidas: { $columns } (--ignore-columns las deja fuera).
cli-dry-run = Prueba sin envío: no se envió nada.
cli-nothing-to-send = No hay nada que enviar.
cli-send-them = ¿Enviarlas?
cli-stopping = Deteniendo: las solicitudes en camino terminan y se anotan; no se envía nada más.
cli-waiting-429 = El servicio pidió esperar (429); el envío sigue a las { $time } (Ctrl-C lo detiene).
cli-journal-down = El registro compartido no responde desde las { $time }; se reintenta (mientras tanto no se envía nada)…
cli-journal-back = El registro compartido responde de nuevo: se sigue enviando.
cli-no-such-time-zone = { $zone } no es una zona horaria: escríbala con su nombre IANA, como America/Santiago.
cli-journal-back-mail = El registro compartido responde de nuevo: siguen los correos.
cli-slowed = El servicio está respondiendo lento: { $now ->
    [one] se envía una factura
   *[other] se envían { $now } facturas
} a la vez hasta que vuelva a responder rápido.
cli-run-progress = { $done } de { $total ->
        [one] 1 fila
       *[other] { $total } filas
    } ({ $rate }/s, faltan unos { $left } s)…
cli-found-at-service = { $count } ya estaban emitidas en el servicio (no en este registro): no se enviaron de nuevo.
cli-rows-waiting = { $count ->
        [one] 1 fila espera
       *[other] { $count } filas esperan
    } confirmación hasta las { $time }: una solicitud anterior puede seguir en curso en el servicio. Después de esa hora, ejecute el mismo archivo otra vez para resolverlo.
cli-row-outcome = fila { $row } ({ $reference }): { $status } — { $why }
cli-run-journal-stopped = Detenido: { $why } No se envía nada que el registro no pueda anotar; las filas de arriba dicen qué pasó con cada una. Ejecute el mismo archivo otra vez cuando el registro se pueda escribir.
cli-run-elsewhere = Detenido: otro computador está emitiendo este mismo archivo ahora, con un registro propio — la factura { $invoice } (referencia { $reference }) no se emitió desde este computador. No se envió nada más; solo las filas que ya iban en camino pueden haberse emitido dos veces (el informe dice qué pasó con cada fila). Acuerden quién ejecuta el archivo; un equipo que factura desde varios computadores necesita el registro compartido (vea `invoice-desk journal init`).
cli-run-cancelled = Detenido: algunas filas no se enviaron. Ejecute el mismo archivo otra vez para enviarlas (las ya emitidas se omiten).
cli-run-unknown = No se sabe el resultado de algunas filas: ejecute el mismo archivo otra vez (primero las revisa y no envía nada dos veces) o `invoice-desk journal resolve`.
cli-run-refused = Algunas filas fueron rechazadas o no se enviaron (vea arriba).
cli-run-similar = { $count ->
        [one] 1 fila parece una factura ya emitida y no se envió
       *[other] { $count } filas parecen facturas ya emitidas y no se enviaron
    } (vea arriba). Si de verdad son otras facturas, ejecute el mismo archivo otra vez con --allow-similar.
cli-run-counts = { $created } creadas, { $existing } ya emitidas, { $refused } rechazadas, { $unknown } por revisar
cli-run-by-others = {" "}({ $count } de ellas por colegas)
cli-run-similar-skipped = , { $count } posibles duplicados omitidos
cli-run-not-sent = , { $count } no enviadas
cli-run-invalid = , { $count ->
        [one] 1 fila
       *[other] { $count } filas
    } no válidas omitidas
cli-plan-in-account = { $count } en la moneda de la cuenta: { $sum }
cli-plan-in = { $count } en { $code }: { $sum }
cli-plan = { $count } { $count ->
    [one] factura
   *[other] facturas
} para { $customers } { $customers ->
    [one] cliente
   *[other] clientes
} ({ $totals }).
cli-plan-empty = Ninguna fila es válida.
cli-checking = Leyendo lo que el servicio ya tiene de { $of ->
    [one] 1 cliente
   *[other] { $of } clientes
}…
cli-report-failed = No se pudo escribir el informe { $path }: { $why }
cli-report-written = Informe escrito en { $path }.

## Registro
cli-init-not-a-database = journal init prepara un registro compartido: indique una dirección de PostgreSQL, postgres://dueño@servidor/base.
cli-init-done = Las tablas del registro compartido están listas. Dé sus permisos al rol de los empleados con estas instrucciones (o vuelva a ejecutar esto con --clerks ROL):
cli-init-done-for = El registro compartido está listo: el rol { $role } puede agregar registros y leerlos, nunca cambiarlos ni borrarlos.
cli-push-not-a-database = journal push copia a un registro compartido: indique su dirección de PostgreSQL con --to.
cli-push-no-local = No hay un registro local en { $path } que copiar.
cli-pushed = Se copiaron { $copied ->
        [one] 1 registro
       *[other] { $copied } registros
    } de { $path } al registro compartido ({ $already } ya estaban).
cli-pushed-directory = { $count ->
    [one] Se llevó 1 cliente del directorio de este computador al del registro compartido (los que ya conocía por nombre, RUT o notas quedaron como estaban).
   *[other] Se llevaron { $count } clientes del directorio de este computador al del registro compartido (los que ya conocía por nombre, RUT o notas quedaron como estaban).
}
cli-journal-damaged = El registro { $path } está dañado: { $why }. Guarde una copia del archivo y restaure el último respaldo.
cli-journal-intact = El registro está íntegro: { $count ->
        [one] 1 fila
       *[other] { $count } filas
    }, todas las huellas coinciden.
cli-journal-broken = El registro está alterado: { $why }.
cli-journal-broken-at = El registro está alterado en la fila { $seq }: { $why }.
cli-resolved-done = hecha: { $id }
cli-resolved-waiting = aún no está en el servicio; su solicitud puede seguir en curso hasta las { $time }
cli-resolved-unreachable = sigue por revisar: no se pudo consultar al servicio
cli-nothing-to-check = No hay nada por revisar.
cli-entries-wait = { $count ->
        [one] 1 registro espera
       *[other] { $count } registros esperan
    }: su solicitud puede seguir en curso en el servicio; vuelva a ejecutar esto después de las { $time } para resolverlo.
cli-still-unknown = { $count ->
    [one] Aún no se sabe 1 resultado.
   *[other] Aún no se saben { $count } resultados.
}
cli-journal-header = n.º|hora|quién|acción|cliente|monto|referencia / archivo|resultado
cli-account-currency = (moneda de la cuenta)
cli-ref = ref. { $reference }
cli-rows = { $count ->
    [one] 1 fila
   *[other] { $count } filas
}
cli-checked = [revisado]
cli-entries = { $count ->
    [one] 1 registro.
   *[other] { $count } registros.
}
cli-journal-exported = { $count ->
    [one] Se exportó 1 registro a { $path }.
   *[other] Se exportaron { $count } registros a { $path }.
}
cli-not-imported = { $path } no se importó:
cli-imported = { $count ->
    [one] Se importó 1 cliente al directorio.
   *[other] Se importaron { $count } clientes al directorio.
}
cli-customers = { $count ->
    [one] 1 cliente.
   *[other] { $count } clientes.
}

## Perfiles y ajustes
cli-no-profiles = No hay perfiles. Agregue uno con `invoice-desk profile add`.
cli-no-such-profile = No hay un perfil llamado "{ $name }".
cli-no-active-profile = No hay un perfil activo.
cli-now-active = "{ $name }" es ahora el perfil activo.
cli-profile-removed = Se eliminó el perfil "{ $name }" y su secreto guardado.
cli-required-for-oauth = { $option } es obligatorio para OAuth.
cli-secret-client = el secreto del cliente
cli-secret-api-key = la llave de API
cli-saved-in-keyring = Se guardó "{ $name }"; { $what } está en el llavero ({ $store }).
cli-saved-not-stored = Se guardó "{ $name }", pero { $what } NO se pudo guardar: no hay llavero disponible ({ $why }). Para este proceso, use la variable de entorno { $variable }.
cli-secret-unreadable = No se pudo leer { $what }: { $why }
cli-secret-missing = No se entregó { $what } en la entrada.
cli-no-config-folder = No se encontró una carpeta de configuración; defina INVOICE_DESK_CONFIG_DIR.
cli-sandbox-profile = El perfil Sandbox funciona solo dentro de la aplicación. Ejecute `invoice-desk sandbox` y defina INVOICE_DESK_* con lo que muestra, o agregue un perfil para él.
cli-no-base-url = No hay perfil ni INVOICE_DESK_BASE_URL: agregue un perfil (`invoice-desk profile add`) o defina las variables INVOICE_DESK_*.
cli-no-api-key = No hay clave de API: defina INVOICE_DESK_API_KEY o guárdela con `invoice-desk profile add`.
cli-no-client-id = No hay id de cliente ni clave de API: defina INVOICE_DESK_CLIENT_ID (o INVOICE_DESK_API_KEY), o use un perfil.
cli-no-setting = Falta { $what }: defina { $variable }.
cli-setting-auth-url = la URL de autenticación
cli-setting-audience = la audiencia
cli-no-client-secret = No hay secreto de cliente: defina INVOICE_DESK_CLIENT_SECRET o guárdelo con `invoice-desk profile add`.
cli-token-body = INVOICE_DESK_TOKEN_BODY debe ser json o form, no "{ $value }".
cli-timeout = INVOICE_DESK_TIMEOUT debe ser un número de segundos entre 1 y 3600, no "{ $value }".
cli-max-invoices = INVOICE_DESK_MAX_INVOICES debe ser un número entero mayor que 0, no "{ $value }".
cli-bad-currency = INVOICE_DESK_CURRENCIES: "{ $value }" no es un código de moneda ISO 4217.
cli-run-progress-others = ({ $count } emitidas por colegas)
cli-no-profile-chosen = Indique un perfil, o active uno con: invoice-desk profile use NOMBRE
cli-statement-failed = No se pudo hacer el estado de cuenta: { $why }
cli-statement-written = Estado de cuenta guardado en { $path }: { $invoices ->
        [one] 1 factura
       *[other] { $invoices } facturas
    }, { $pages ->
        [one] 1 página
       *[other] { $pages } páginas
    }.
cli-statement-listing = { $count ->
        [one] 1 factura
       *[other] { $count } facturas
    } listadas…
cli-statement-stopped = Detenido: no se guardó ningún estado de cuenta.
cli-statement-workbook = Tiene más facturas de las que caben impresas: el PDF lleva las { $shown } de vencimiento más antiguo y todas las { $invoices } están en { $path }.
cli-statement-nothing-owed = No se adeuda nada.
cli-statement-owed = Adeudado: { $owed }.
cli-statement-owed-overdue = Adeudado: { $owed }; la más antigua vencida hace { $days ->
        [one] 1 día
       *[other] { $days } días
    }.
cli-customers-file = El archivo de clientes { $path } no se puede usar: { $why }
cli-customers-too-large = pesa más de { $mb } MB
cli-customers-bad-id = la línea { $line } no es un id de cliente: { $id }
cli-customers-too-many = nombra más de { $max ->
        [one] 1 cliente
       *[other] { $max } clientes
    }
cli-customers-none = No hay clientes para hacer estados de cuenta: indique --customers ARCHIVO (un id por línea) o --all-known.
cli-statements-progress = { $done } de { $total ->
        [one] 1 cliente
       *[other] { $total } clientes
    }…
cli-statements-done = { $pdfs ->
        [one] 1 estado de cuenta guardado
       *[other] { $pdfs } estados de cuenta guardados
    }, { $nothing ->
        [one] 1 cliente no adeuda nada
       *[other] { $nothing } clientes no adeudan nada
    } (sin PDF), { $failed } no se pudieron consultar. Resumen: { $summary }
cli-statements-customer-failed = { $customer }: sin estado de cuenta: { $why }
cli-statements-stopped = Detenido tras { $done } de { $total ->
        [one] 1 cliente
       *[other] { $total } clientes
    }: el resumen lista los hechos; vuelva a ejecutarlo para el resto (los archivos ya guardados se conservan, nunca se sobrescriben).
cli-receivables-too-large = demasiado grande para sumar
cli-receivables-csv-only = La cartera se escribe en CSV o en un libro Excel: dé a --out un nombre terminado en .csv o .xlsx.
cli-receivables-none = No hay clientes: importe el directorio de clientes (invoice-desk customers import ARCHIVO) o indique --customers ARCHIVO.
cli-receivables-progress = { $done } de { $total ->
        [one] 1 cliente
       *[other] { $total } clientes
    }…
cli-receivables-written = { $count ->
    [one] 1 cliente guardado en { $path }.
   *[other] { $count } clientes guardados en { $path }.
}
cli-receivables-failed = { $count ->
        [one] 1 cliente no se pudo consultar: no se sabe cuánto adeuda
       *[other] { $count } clientes no se pudieron consultar: no se sabe cuánto adeudan
    } (vea sus líneas).
cli-receivables-customer = Cliente
cli-receivables-name = Nombre
cli-receivables-owed = Adeudado
cli-receivables-oldest = Más antigua (días)
cli-receivables-last = Última factura
cli-receivables-not-listed = no se pudo consultar: { $why }
cli-receivables-nothing = nada adeudado
cli-receivables-total = Total { $currency }

## email, profile mail, customers contacts
cli-secret-mail = la contraseña del servidor de correo
cli-mail-none = (ninguno)
cli-mail-f-server = Servidor
cli-mail-f-security = Seguridad
cli-mail-f-user = Usuario
cli-mail-f-from = Remitente
cli-mail-f-reply-to = Responder a
cli-mail-f-copy-to = Copia para la mesa
cli-mail-f-per-minute = Correos por minuto
cli-mail-no-password = No hay contraseña guardada para el usuario del servidor de correo: indíquela con `invoice-desk profile mail --user USUARIO` (o INVOICE_DESK_SMTP_PASSWORD).
cli-mail-no-sender = Un correo dice de quién viene: indique primero la razón social (`invoice-desk profile sender --organization …`). No se envió nada.
cli-mail-unusable = Los ajustes del servidor de correo no se pueden usar: { $why }
cli-mail-previewed = { $count ->
    [one] 1 correo mostrado; no se envió nada.
   *[other] { $count } correos mostrados; no se envió nada.
}
cli-mail-summary = Enviados: { $sent } · enviados antes: { $before } · sin saber: { $unknown } · sin dirección: { $none } · no enviados: { $refused }
cli-mail-stopped = Detenido: el servidor de correo no se pudo usar ({ $why }). No se envió nada más.
cli-mail-unknown-hint = Algunos correos pueden haber llegado o no al servidor: no se envían de nuevo. Consulte al cliente o revise la copia de la mesa; para enviar uno otra vez, use el comando para ese cliente con --again.
cli-mail-no-address = { $customer }: sin dirección de correo en el directorio (indíquela con `invoice-desk customers contacts`); no se envió nada.
cli-mail-not-made = { $customer }: no se pudo hacer el estado de cuenta ({ $why }); no se envió nada.
cli-mail-preview-to = Para { $customer }: { $to }
cli-mail-preview-subject = Asunto: { $subject }
cli-mail-preview-attachment = Adjunto: { $name } ({ $kb } KB)
cli-mail-preview-sent-before = Ya se envió el { $when } ({ $by }): no se enviará de nuevo (salvo con --again --again-all).
cli-mail-preview-in-doubt = Quizás se envió el { $when } ({ $by }): no llegó respuesta, así que no se sabe si el servidor lo recibió. No se enviará de nuevo salvo con --again.
cli-mail-sent = { $customer }: enviado a { $to } (el servidor respondió "{ $reply }").
cli-mail-recipient-refused =   el servidor rechazó { $address }: { $reply }
cli-mail-sent-to-refused = { $customer }: se envió de nuevo solo a { $address }, que el servidor había rechazado (respondió "{ $reply }"); las demás direcciones ya lo tenían.
cli-mail-addresses-refused = { $count ->
    [one] 1 dirección rechazó el correo mientras las demás lo recibieron: la próxima ejecución se lo envía solo a ella.
   *[other] { $count } direcciones rechazaron el correo mientras las demás lo recibieron: la próxima ejecución se lo envía a cada una por separado.
}
cli-mail-already = { $customer }: ya se envió el { $when } ({ $by }); no se envía de nuevo.
cli-mail-on-its-way = { $customer }: { $by } lo está enviando en este momento (su programa está conectado al registro del equipo); no se envía aquí.
cli-mail-unknown = { $customer }: no se sabe si se envió: un envío anterior ({ $when }, entrada { $seq } del registro) no tiene resultado (no llegó respuesta del servidor, o su programa se detuvo); puede haber llegado. No se envía de nuevo.
cli-mail-refused = { $customer }: el servidor de correo lo rechazó ({ $reply }); no se envió nada.
cli-mail-later = { $customer }: el servidor de correo pidió intentar más tarde ({ $reply }); no se envió nada. Vuelva a ejecutar el comando más tarde.
cli-mail-lost = { $customer }: el correo se entregó al servidor y no llegó respuesta ({ $why }); puede haber llegado. Entrada { $seq } del registro; no se envía de nuevo.
cli-mail-no-such-template = "{ $kind }" no es una plantilla: statement, invoice, reminder-30, reminder-60 o reminder-90.
cli-mail-template-used = Su plantilla, { $path }:
cli-mail-template-builtin = La plantilla incluida (para cambiarla, use --write y edite { $path }):
cli-mail-template-exists = { $path } ya existe: edítela ahí.
cli-mail-template-written = Guardada en { $path }: edítela; desde ahora se usa esa.
cli-contacts-bad-id = "{ $id }" no es un id de cliente.
cli-contacts-none = { $customer } no tiene dirección de correo.
cli-contacts-bad-email = "{ $email }" no es una dirección de correo; no se cambió nada.
cli-contacts-set = { $count ->
    [0] { $customer }: sin direcciones; no recibirá correos.
    [one] { $customer }: 1 dirección guardada.
   *[other] { $customer }: { $count } direcciones guardadas.
}

## uf
cli-secret-cmf-key = la llave de la CMF
cli-uf-check-range = No se puede revisar del { $from } al { $to }: el primer día debe ir antes del último, y a lo más cinco años.
cli-uf-unconfirmed = { $date }: la CMF no publica valor para ese día; el guardado no se pudo confirmar.
cli-uf-checked = Revisados con la CMF del { $from } al { $to }: { $count ->
        [one] 1 valor guardado
       *[other] { $count } valores guardados
    }, { $agree } coinciden; { $differ ->
        [0] ninguna diferencia.
        [one] 1 diferencia (arriba).
       *[other] { $differ } diferencias (arriba).
    }
cli-find-not-asked = No se pudo consultar el servicio; se muestra lo que este computador conoce. { $why }
sbx-title = invoice-desk sandbox: una copia local del servicio de facturación (no el real).
sbx-base-url = dirección base
sbx-auth-url = dirección de acceso
sbx-audience = audiencia
sbx-oauth-org = Organización OAuth (credenciales de cliente):
sbx-client-id = id de cliente
sbx-client-secret = secreto de cliente
sbx-account-keys = llaves de cuenta
sbx-old-api-key = llave API antigua
sbx-old-api-key-refused = (se rechaza: la organización usa OAuth)
sbx-key-org = Organización con llave API:
sbx-api-key = llave API
sbx-api-key-header = (encabezado x-api-key)
sbx-customers = Clientes (facturas de ambas organizaciones):
sbx-try = Pruébelo (organización con llave API):
sbx-oauth-try = OAuth: pida un token y úselo:
sbx-admin = Administración (solo desde este computador):

# What clap says after "invalid value 'X' for '--arg':"
cli-arg-not-a-day = no es un día AAAA-MM-DD
cli-arg-not-a-currency = no es un código de moneda ISO 4217 (como CLP, CLF o USD)
cli-arg-concurrency = las solicitudes a la vez van de 1 a 64
cli-arg-not-a-period = no es un período AAAA-MM

## Contracts (`contracts`)
ct-why-empty = El archivo está vacío: no tiene títulos.
ct-why-missing-column = Al archivo le falta la columna { $column }.
ct-why-unknown-columns = Columnas que no son ninguna de las conocidas: { $columns }.
ct-why-twice = La columna { $column } aparece dos veces.
ct-why-empty-cell = Vacía.
ct-why-bad-id = Un id de contrato tiene como máximo 100 caracteres, sin caracteres de control ni llaves.
ct-why-duplicate = El contrato { $id } está dos veces en el archivo.
ct-why-currency = "{ $text }" no es una moneda que este perfil ofrezca.
ct-why-pesos-need-uf = Facturar en pesos a la UF del día es para un contrato en UF.
ct-why-bill-in = "{ $text }": déjelo vacío (la moneda del contrato) o escriba CLP (pesos a la UF del día de emisión).
ct-why-every = "{ $text }": escriba mes, trimestre o año.
ct-why-day = "{ $text }": un día del 1 al 31.
ct-why-due-days = "{ $text }": una cantidad de días de 0 a 365.
ct-why-period = "{ $text }" no es un período AAAA-MM.
ct-why-end-before-start = Termina antes de empezar.
ct-why-reference = "{ $text }": un patrón de referencia lleva { "{period}" } (cada período con su propia referencia) y tiene como máximo 245 caracteres.
ct-why-exists = El contrato { $id } ya está guardado, con otras condiciones: una importación no lo reescribe. Cámbielo desde un período con: invoice-desk contracts change { $id } --from AAAA-MM.
ct-every-month = mensual
ct-every-quarter = trimestral
ct-every-year = anual
ct-bill-in-pesos = pesos a la UF del día de emisión
ct-skip-not-started = { $id }: empieza en { $period }.
ct-skip-ended = { $id }: terminó después de { $period }; no queda nada por facturar.
ct-skip-paused = { $id } · { $period }: pausado desde { $since }, no se factura.
ct-skip-no-uf = { $id } · { $period }: no se emite, no hay valor de la UF del día ({ $why }).
ct-skip-currency = { $id } · { $period }: no se emite, este perfil no ofrece { $code }.
ct-state-active = vigente
ct-state-paused = pausado
ct-state-ended = terminado
ct-state-not-started = aún no empieza
cli-ct-problems = { $count ->
    [one] 1 problema en { $path }: no se guardó ningún contrato.
   *[other] { $count } problemas en { $path }: no se guardó ningún contrato.
}
cli-ct-imported = { $added ->
    [one] Se agregó 1 contrato
   *[other] Se agregaron { $added } contratos
}{ $same ->
    [0] .
    [one] ; 1 ya estaba guardado tal cual.
   *[other] ; { $same } ya estaban guardados tal cual.
}
cli-ct-none = Este registro no tiene contratos guardados.
cli-ct-header = Contrato|Cliente|Cada|Monto|Se factura en|Desde|Hasta|Estado
cli-ct-no-such = Este registro no tiene el contrato { $id }.
cli-ct-noted = Contrato { $id }: { $what }.
cli-ct-what-change = condiciones nuevas desde { $period }
cli-ct-what-end = su último período es { $period }
cli-ct-what-pause = pausado desde { $period }
cli-ct-what-resume = se factura de nuevo desde { $period }
cli-ct-nothing-to-change = Nada que cambiar: indique --amount, --day, --due-days o --description.
cli-ct-show-head = Contrato { $id } · { $customer } · { $every } desde { $start }{ $end }; referencia { $reference }; { $state }.
cli-ct-show-end = { " " }hasta { $period }
cli-ct-show-terms = Desde { $period }: { $amount }, se factura en { $bill_in }, se emite el día { $day }, vence { $due_days } días después{ $description }.
cli-ct-show-pause = Pausado desde { $from }{ $until }.
cli-ct-show-until = { " " }hasta { $period } (desde ahí se factura de nuevo)
cli-ct-show-event = { $time } · { $who } · { $what }
cli-ct-event-create = creado
cli-ct-event-change = condiciones cambiadas desde { $period }: { $amount }
cli-ct-event-end = término después de { $period }
cli-ct-event-no-end = término quitado
cli-ct-event-pause = pausado desde { $period }
cli-ct-event-resume = reanudado desde { $period }
cli-ct-plan = Período { $period }: { $count ->
    [one] 1 factura
   *[other] { $count } facturas
} de { $contracts ->
    [one] 1 contrato
   *[other] { $contracts } contratos
}{ $totals }.
cli-ct-plan-empty = Período { $period }: nada que emitir.
cli-ct-due = { $contract } · { $period } · { $customer } · { $amount } · vence el { $due } · { $reference }
cli-ct-due-pesos = { " " }(UF { $uf } a { $value }, la UF del { $day })
cli-ct-due-catch-up = { " " }— período atrasado, se pone al día ahora
cli-ct-billed-before = { $count ->
    [one] 1 período ya se facturó antes: no se vuelve a emitir.
   *[other] { $count } períodos ya se facturaron antes: no se vuelven a emitir.
}
cli-ct-plan-only = No se envió nada: ejecútelo de nuevo con --yes para emitir estas facturas.
cli-ct-no-uf = No hay valor de la UF del { $day }: los contratos que se facturan en pesos a la UF no se emiten ({ $why }).

## approvals, journal policy
cli-ap-local = Este registro está en este computador: no tiene política de aprobación (un computador, una persona). Las aprobaciones son del registro compartido del equipo.
cli-ap-none = No hay pedidos de aprobación.
cli-ap-none-for-me = Nada espera su aprobación.
cli-ap-note-too-long = La nota es demasiado larga: a lo más { $max } caracteres.
cli-ap-reject-needs-note = Un rechazo dice por qué: --note "…".
cli-ap-own = El pedido { $id } es suyo: lo aprueba o lo rechaza otro miembro del equipo.
cli-ap-already = El pedido { $id } ya no espera: { $state }.
cli-ap-not-found = No hay un pedido de aprobación { $id } en este registro.
cli-ap-approved = Aprobó el pedido { $id }: { $what }. { $who } puede llevarlo a cabo, una vez, hasta el { $until }.
cli-ap-rejected = Rechazó el pedido { $id }: { $what }. No se enviará nada de él.
cli-ap-carrying-out = Pedido { $id }, { $state }: se lleva a cabo.
cli-ap-asked = Pedido de aprobación { $id }: { $what } (falta la aprobación de otro miembro del equipo). No se envió nada. Cuando lo aprueben (invoice-desk approvals approve { $id }), ejecute el mismo comando.
cli-ap-needs-reference = La política del equipo pide aprobar una factura de este monto, y una aprobación nombra la factura por su referencia: indique una con --external-id.
cli-policy-owner = La política del equipo la cambia el dueño de la base de datos: indique la dirección del dueño (invoice-desk journal policy postgres://dueño@servidor/base …).
cli-policy-off = Política del equipo: nada necesita la aprobación de otro miembro.
cli-policy-voids = toda anulación
cli-policy-runs = toda emisión de más de { $rows ->
    [one] 1 fila
   *[other] { $rows } filas
}
cli-policy-amount = toda factura de más de { $amount } (y la que queda en la moneda de la cuenta)
cli-policy-on = Política del equipo: otro miembro del equipo aprueba { $what }. Un pedido vale { $hours } horas.
cli-policy-bad-amount = --approve-amount-over lleva un monto y una moneda: --approve-amount-over 5000000 CLP.
cli-policy-bad-amount-is = --approve-amount-over: "{ $amount } { $currency }" no es un monto mayor que cero y un código de moneda (CLP, CLF, USD…).
cli-bad-per-minute = un número de correos por minuto, de 1 a { $max }, o "server"
cli-ap-older-layout = El registro compartido del equipo aún no tiene aprobaciones: su dueño lo pone al día con invoice-desk journal policy (o journal init). Las facturas, anulaciones y correos siguen como antes.
