import { createHmac, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { readText } from './read-body.js';

/**
 * A local stand-in for the WhatsApp Business Cloud API, as Meta documents it: `POST
 * /{version}/{phone number id}/messages` with `Authorization: Bearer {token}` and a template
 * message; 200 with `messages[0].id` ("wamid.…"), or `{ error: { code, message } }`: 401 code 190
 * for a wrong token, 400 code 132001 for a template it does not have (the approved ones are
 * given), 400 code 131026 for a number scripted as not on WhatsApp. Its webhook posts are made
 * by `statusWebhook`: the documented body, signed X-Hub-Signature-256 with the app secret.
 */
export interface WhatsAppSent {
  to: string;
  template: string;
  language: string;
  params: string[];
  id: string;
}

export interface FakeWhatsApp {
  baseUrl: string;
  phoneNumberId: string;
  accessToken: string;
  appSecret: string;
  sent: WhatsAppSent[];
  /** Numbers (digits, no +) the fake says are not on WhatsApp. */
  notOnWhatsApp: Set<string>;
  /** The webhook body and signature that tell `id`'s status. */
  statusWebhook(
    id: string,
    status: 'sent' | 'delivered' | 'read' | 'failed',
    errorCode?: number,
  ): { body: string; signature: string };
  close(): Promise<void>;
}

export async function startFakeWhatsApp(approved: readonly string[]): Promise<FakeWhatsApp> {
  const phoneNumberId = '106540352242922';
  const accessToken = `EAAG${randomBytes(24).toString('hex')}`;
  const appSecret = randomBytes(16).toString('hex');
  const sent: WhatsAppSent[] = [];
  const notOnWhatsApp = new Set<string>();
  const sockets = new Set<Socket>();
  const error = (code: number, message: string) =>
    JSON.stringify({ error: { message, type: 'OAuthException', code, fbtrace_id: 'A1b2C3' } });
  const server = createServer(async (req, res) => {
    const raw = await readText(req);
    const json = { 'content-type': 'application/json' };
    if (req.method !== 'POST' || req.url !== `/v21.0/${phoneNumberId}/messages`) {
      res.writeHead(404, json).end(error(803, 'Unknown path'));
      return;
    }
    if (req.headers.authorization !== `Bearer ${accessToken}`) {
      res.writeHead(401, json).end(error(190, 'Invalid OAuth access token'));
      return;
    }
    const body = JSON.parse(raw) as {
      messaging_product?: string;
      to?: string;
      type?: string;
      template?: {
        name?: string;
        language?: { code?: string };
        components?: { type: string; parameters: { type: string; text: string }[] }[];
      };
    };
    const t = body.template;
    if (body.messaging_product !== 'whatsapp' || body.type !== 'template' || !t?.name || !body.to) {
      res.writeHead(400, json).end(error(100, 'Invalid parameter'));
      return;
    }
    if (!approved.includes(t.name) || !['en', 'fr'].includes(t.language?.code ?? '')) {
      res
        .writeHead(400, json)
        .end(error(132001, 'Template name does not exist in the translation'));
      return;
    }
    if (notOnWhatsApp.has(body.to)) {
      res.writeHead(400, json).end(error(131026, 'Message undeliverable'));
      return;
    }
    const id = `wamid.${randomBytes(18).toString('base64url')}`;
    sent.push({
      to: body.to,
      template: t.name,
      language: t.language?.code ?? '',
      params: (t.components?.[0]?.parameters ?? []).map((p) => p.text),
      id,
    });
    res.writeHead(200, json).end(
      JSON.stringify({
        messaging_product: 'whatsapp',
        contacts: [{ input: body.to, wa_id: body.to }],
        messages: [{ id }],
      }),
    );
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/v21.0`,
    phoneNumberId,
    accessToken,
    appSecret,
    sent,
    notOnWhatsApp,
    statusWebhook(id, status, errorCode) {
      const body = JSON.stringify({
        object: 'whatsapp_business_account',
        entry: [
          {
            id: '102290129340398',
            changes: [
              {
                field: 'messages',
                value: {
                  messaging_product: 'whatsapp',
                  metadata: {
                    display_phone_number: '237600000000',
                    phone_number_id: phoneNumberId,
                  },
                  statuses: [
                    {
                      id,
                      status,
                      timestamp: String(Math.floor(Date.now() / 1000)),
                      recipient_id: sent.find((s) => s.id === id)?.to ?? '',
                      ...(errorCode ? { errors: [{ code: errorCode, title: 'Failed' }] } : {}),
                    },
                  ],
                },
              },
            ],
          },
        ],
      });
      const signature = `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`;
      return { body, signature };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
